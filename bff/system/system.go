package system

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/ping"
	"github.com/pressroom/pressroom/platform/queue"
)

// QueueMonitorPath is where the Asynq monitoring UI is mounted.
const QueueMonitorPath = "/admin/queues"

// Deps are what the system routes use.
type Deps struct {
	DB       *sqlx.DB
	Redis    *redis.Client
	RedisOpt asynq.RedisConnOpt
	Relay    *outbox.Relay
	Auth     *auth.Service
	// Store is the blob store; readiness checks it can take writes.
	Store blob.Store
	Log   *slog.Logger
	// OutboxShowLinks shows the tokens of the outbox's links (PRESSROOM_MAIL_OUTBOX_SHOW_LINKS);
	// otherwise they read [hidden].
	OutboxShowLinks bool
}

// Routes lists the system endpoints on e: health at the root, the ping calls under /api/admin,
// the queue monitor under QueueMonitorPath.
func Routes(e *echo.Echo, d Deps) {
	e.GET("/healthz", handleHealth)
	e.GET("/readyz", d.handleReady)

	admin := e.Group("/api/admin/system")
	d.Auth.Handle(admin, http.MethodPost, "/pings", access.AdminOnly, d.handleRequestPing)
	d.Auth.Handle(admin, http.MethodGet, "/pings/:id", access.AdminOnly, d.handleGetPing)
	d.Auth.Handle(admin, http.MethodGet, "/mail", access.AdminOnly, d.handleListMail)
	d.Auth.Handle(admin, http.MethodGet, "/audit", access.AdminOnly, d.handleListAudit)

	monitor := echo.WrapHandler(asynqmon.New(asynqmon.Options{RootPath: QueueMonitorPath, RedisConnOpt: d.RedisOpt}))
	guard := d.Auth.GuardWithCookie(access.AdminOnly)
	e.Any(QueueMonitorPath, monitor, sameOriginUnsafe, guard)
	e.Any(QueueMonitorPath+"/*", monitor, sameOriginUnsafe, guard)
}

// MsgCrossOrigin refuses a state-changing request sent by another site's page.
const MsgCrossOrigin = "This request did not come from this site's pages and was refused."

// sameOriginUnsafe guards routes that accept the token cookie: a request that changes state
// (anything but GET, HEAD, OPTIONS) and carries no Authorization header is refused with 403 unless
// its Origin is the bff's own. The cookie goes with every request the browser makes to this host,
// whichever page asked, while browsers name the asking page's origin on every such request; a
// missing Origin is a tool, which should send the Authorization header instead.
func sameOriginUnsafe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if r.Header.Get(echo.HeaderAuthorization) != "" {
			return next(c)
		}
		if u, err := url.Parse(r.Header.Get(echo.HeaderOrigin)); err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return envelope.Fail(http.StatusForbidden, MsgCrossOrigin)
		}
		return next(c)
	}
}

func handleHealth(c echo.Context) error {
	return envelope.OK(c, map[string]string{"status": "ok"})
}

// handleReady answers 200 when Postgres, Redis and the blob store all answer within two seconds,
// else 503 naming what is down.
func (d Deps) handleReady(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	checks := map[string]string{"database": "ok", "redis": "ok", "blob": "ok"}
	var errs []envelope.FieldError
	if err := d.DB.PingContext(ctx); err != nil {
		d.Log.Warn("readiness: database", "err", err)
		checks["database"] = "unreachable"
		errs = append(errs, envelope.FieldError{Field: "database", Message: "The database is unreachable."})
	}
	if err := d.Redis.Ping(ctx).Err(); err != nil {
		d.Log.Warn("readiness: redis", "err", err)
		checks["redis"] = "unreachable"
		errs = append(errs, envelope.FieldError{Field: "redis", Message: "Redis is unreachable."})
	}
	if err := d.Store.Check(ctx); err != nil {
		d.Log.Warn("readiness: blob store", "err", err)
		checks["blob"] = "unreachable"
		errs = append(errs, envelope.FieldError{Field: "blob", Message: "The file storage is unreachable."})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusServiceUnavailable, "Not ready.", errs...)
	}
	return envelope.OK(c, checks)
}

type pingBody struct {
	Service string `json:"service"`
}

func (d Deps) handleRequestPing(c echo.Context) error {
	body := pingBody{Service: string(queue.Worker)}
	if c.Request().ContentLength != 0 {
		if err := envelope.Bind(c, &body); err != nil {
			return err
		}
	}
	ctx := c.Request().Context()
	p, outboxID, err := ping.Request(ctx, d.DB, queue.Service(body.Service), auth.Caller(c).User.ID)
	if errors.Is(err, ping.ErrUnknownService) {
		msg := "The service must be worker or renderer."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "service", Message: msg})
	}
	if err != nil {
		return err
	}
	// The ping is committed; if Redis is away now, the worker's relay sends it later.
	if _, err := d.Relay.Dispatch(ctx, outboxID); err != nil {
		d.Log.Warn("ping left for the relay", "ping_id", p.ID, "err", err)
	}
	return envelope.Accepted(c, p)
}

func (d Deps) handleGetPing(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	p, err := ping.Get(c.Request().Context(), d.DB, id)
	if errors.Is(err, ping.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, "Ping not found.")
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, p)
}

// handleListMail pages through the local mail outbox (messages kept when no SMTP server is set).
// The tokens of the links in them are hidden unless OutboxShowLinks: a reset or sign-in link read
// here would let an admin into the account; the stored message keeps them.
func (d Deps) handleListMail(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	items, total, err := mail.ListOutbox(c.Request().Context(), d.DB, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	if !d.OutboxShowLinks {
		for i := range items {
			items[i].Body = hideTokens(items[i].Body)
		}
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// linkSecret matches the value of a secret query parameter of a link (token, code, signature).
var linkSecret = regexp.MustCompile(`([?&](?:token|code|signature)=)[^&\s"'<>]+`)

// hideTokens replaces the secret parameters of the links in body by [hidden].
func hideTokens(body string) string { return linkSecret.ReplaceAllString(body, "${1}[hidden]") }

// AuditEvent is one row of the security audit trail.
type AuditEvent struct {
	ID        int64           `db:"id" json:"id"`
	UserID    *int64          `db:"user_id" json:"user_id"`
	Action    string          `db:"action" json:"action"`
	Detail    json.RawMessage `db:"detail" json:"detail"`
	ClientIP  string          `db:"client_ip" json:"client_ip"`
	CreatedAt time.Time       `db:"created_at" json:"created_at"`
}

// handleListAudit pages through the audit trail, newest first; q filters by action prefix.
func (d Deps) handleListAudit(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	const list = `
SELECT id, user_id, action, detail, client_ip, created_at FROM audit_events
WHERE action LIKE $1 || '%' ORDER BY id DESC LIMIT $2 OFFSET $3`
	const count = `SELECT count(*) FROM audit_events WHERE action LIKE $1 || '%'`
	ctx := c.Request().Context()
	var items []AuditEvent
	if err := d.DB.SelectContext(ctx, &items, list, q.Q, q.PerPage, q.Offset()); err != nil {
		return fmt.Errorf("list audit events: %w", err)
	}
	var total int
	if err := d.DB.GetContext(ctx, &total, count, q.Q); err != nil {
		return fmt.Errorf("count audit events: %w", err)
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}
