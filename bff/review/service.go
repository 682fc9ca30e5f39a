package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/notifications"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Messages the review screen shows as they are.
const (
	MsgNotFound       = "This design-order item does not exist."
	MsgNotReviewable  = "This print file is not waiting for review."
	MsgNotReady       = "The print file is still being prepared. Try again when it is ready."
	MsgAlreadyDone    = "This item was approved; its print file can no longer change."
	MsgCommentNeeded  = "Tell the seller what to change: the comment is required."
	MsgCommentTooLong = "The comment may not be longer than 2000 characters."
	MsgUploadUnusable = "Only a ready PNG upload of yours can replace the print file."
	MsgUploadPending  = "The upload is still being checked. Try again in a moment."
	MsgUploadChanged  = "The uploaded file changed after it was checked. Upload it again."
	MsgApproved       = "Approved."
	MsgRejected       = "Rejected; the seller is notified."
	MsgReplaced       = "Print file replaced; it is being checked."
	MsgRerendering    = "Re-rendering the print file."
)

// maxComment is the longest comment a designer may give, in characters.
const maxComment = 2000

// tileCacheControl lets the browser keep a tile as long as it likes: a tile's path names its revision,
// so its bytes never change; private, since only designers may see print files.
const tileCacheControl = "private, max-age=31536000, immutable"

// Deps are what the review calls use.
type Deps struct {
	DB *sqlx.DB
	// Store holds the print files and tiles, and signs the full file's URL.
	Store blob.Store
	// Relay sends the renderer's tasks right after an action commits (its loop sends any left).
	Relay *outbox.Relay
	// FileURLTTL is the lifetime of the print file's signed URL (the bff's PRESSROOM_FILE_URL_TTL).
	FileURLTTL time.Duration
	Log        *slog.Logger
}

// Service answers the review calls.
type Service struct{ d Deps }

// New checks the dependencies and builds the service.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Store == nil || d.Relay == nil {
		return nil, errors.New("review: DB, Store and Relay are required")
	}
	if d.FileURLTTL < blob.MinTTL || d.FileURLTTL > blob.MaxTTL {
		return nil, fmt.Errorf("review: file URL lifetime %s outside %s to %s", d.FileURLTTL, blob.MinTTL, blob.MaxTTL)
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{d: d}, nil
}

// Designers is the need of every review route: designers, and admins who oversee them.
var Designers = access.Need{Roles: []string{access.RoleDesigner, access.RoleAdmin}}

// Base is where the review routes live under /api.
const Base = "/design-orders/items"

// Routes lists the review endpoints under g (mounted at /api).
func Routes(g *echo.Group, a *auth.Service, s *Service) {
	a.Handle(g, http.MethodGet, Base, Designers, s.handleList)
	a.Handle(g, http.MethodGet, Base+"/:id", Designers, s.handleGet)
	a.Handle(g, http.MethodGet, Base+"/:id/tiles/:revision/manifest", Designers, s.handleManifest)
	a.Handle(g, http.MethodGet, Base+"/:id/tiles/:revision/:level/:tile", Designers, s.handleTile)
	a.Handle(g, http.MethodPost, Base+"/:id/approve", Designers, s.handleApprove)
	a.Handle(g, http.MethodPost, Base+"/:id/reject", Designers, s.handleReject)
	a.Handle(g, http.MethodPost, Base+"/:id/replace", Designers, s.handleReplace)
	a.Handle(g, http.MethodPost, Base+"/:id/rerender", Designers, s.handleRerender)
}

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func conflict(msg string) error { return envelope.Fail(http.StatusConflict, msg) }

func invalid(field, msg string) error {
	return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: field, Message: msg})
}

// itemID reads the :id parameter; one that is no id reads as a missing item.
func itemID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound()
	}
	return id, nil
}

// tilesURL is the API path of an item revision's tiles, relative to /api.
func tilesURL(id, revision int64) string {
	return Base + "/" + strconv.FormatInt(id, 10) + "/tiles/" + strconv.FormatInt(revision, 10) + "/"
}

var statuses = map[string]bool{StatusDesigning: true, StatusReviewing: true, StatusApproved: true, StatusRejected: true}

// handleList answers the queue: status (repeatable, or comma-separated) filters it, q searches the
// order number, customer and product; oldest first with order_by=id:asc, as a queue is worked.
func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	f := listFilter{q: q.Q, limit: q.PerPage, offset: q.Offset(), asc: q.OrderAsc}
	params := c.QueryParams()
	for _, v := range append(params["status"], params["status[]"]...) {
		for _, st := range strings.Split(v, ",") {
			if st = strings.TrimSpace(st); st == "" {
				continue
			}
			if !statuses[st] {
				return invalid("status", "The status must be designing, reviewing, approved or rejected.")
			}
			f.statuses = append(f.statuses, st)
		}
	}
	items, total, err := list(c.Request().Context(), s.d.DB, f)
	if err != nil {
		return err
	}
	for i := range items {
		if items[i].Manifest != nil {
			items[i].TilesURL = tilesURL(items[i].ID, items[i].Revision)
		}
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// handleGet answers one item with its design document, its events, its tiles' path and a signed URL
// of the full print file.
func (s *Service) handleGet(c echo.Context) error {
	id, err := itemID(c)
	if err != nil {
		return err
	}
	it, err := s.detail(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return envelope.OK(c, it)
}

func (s *Service) detail(ctx context.Context, id int64) (Item, error) {
	it, err := get(ctx, s.d.DB, id, false)
	if errors.Is(err, errNotFound) {
		return Item{}, notFound()
	}
	if err != nil {
		return Item{}, err
	}
	if it.Events, err = events(ctx, s.d.DB, id); err != nil {
		return Item{}, err
	}
	if it.Manifest != nil {
		it.TilesURL = tilesURL(id, it.Revision)
	}
	if it.PrintStatus == tasks.PrintDone && it.PrintKey != "" {
		if it.FileURL, err = s.d.Store.SignGet(ctx, it.PrintKey, s.d.FileURLTTL); err != nil {
			return Item{}, fmt.Errorf("sign print file of item %d: %w", id, err)
		}
	}
	return it, nil
}

// tileName is a tile's file name as renderer/tiles names it.
var tileName = regexp.MustCompile(`^[0-9]{1,5}_[0-9]{1,5}\.(webp|png)$`)

// tilesRevision reads the item id and the revision of the path, a revision the item has reached, or
// answers 404. Tiles of earlier revisions stay readable, so two versions can be compared.
func (s *Service) tilesRevision(c echo.Context) (id, rev int64, err error) {
	if id, err = itemID(c); err != nil {
		return 0, 0, err
	}
	rev, err = strconv.ParseInt(c.Param("revision"), 10, 64)
	if err != nil || rev < 1 {
		return 0, 0, envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	var current int64
	if err := s.d.DB.GetContext(c.Request().Context(), &current, `SELECT revision FROM design_order_items WHERE id = $1`, id); err != nil || rev > current {
		return 0, 0, envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	return id, rev, nil
}

// handleManifest answers the deep-zoom manifest of one revision of an item's print file (the
// current one's is in the item too), for comparing an earlier version with it.
func (s *Service) handleManifest(c echo.Context) error {
	id, rev, err := s.tilesRevision(c)
	if err != nil {
		return err
	}
	key := tasks.ManifestKey(id, rev)
	rc, _, err := s.d.Store.Get(c.Request().Context(), key)
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", key, err)
	}
	defer rc.Close()
	manifest, err := io.ReadAll(io.LimitReader(rc, maxManifestBytes))
	if err != nil {
		return fmt.Errorf("read %s: %w", key, err)
	}
	return envelope.OK(c, json.RawMessage(manifest))
}

// maxManifestBytes bounds a manifest read back (a few hundred bytes in practice).
const maxManifestBytes = 64 << 10

// handleTile streams one tile of one revision of an item's pyramid.
func (s *Service) handleTile(c echo.Context) error {
	id, rev, err := s.tilesRevision(c)
	if err != nil {
		return err
	}
	level, err := strconv.Atoi(c.Param("level"))
	name := c.Param("tile")
	if err != nil || level < 0 || level > 64 || !tileName.MatchString(name) {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	ctx := c.Request().Context()
	key := tasks.TilesPrefix(id, rev) + strconv.Itoa(level) + "/" + name
	rc, info, err := s.d.Store.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, envelope.MsgNotFound)
	}
	if err != nil {
		return fmt.Errorf("read tile %s: %w", key, err)
	}
	defer rc.Close()
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, info.ContentType)
	h.Set(echo.HeaderCacheControl, tileCacheControl)
	h.Set(echo.HeaderContentLength, strconv.FormatInt(info.Size, 10))
	h.Set("X-Content-Type-Options", "nosniff")
	c.Response().WriteHeader(http.StatusOK)
	_, err = io.Copy(c.Response(), rc)
	return err
}

// commentBody is the body of approve and reject.
type commentBody struct {
	Comment string `json:"comment"`
}

func readComment(c echo.Context, required bool) (string, error) {
	var b commentBody
	if c.Request().ContentLength != 0 {
		if err := envelope.Bind(c, &b); err != nil {
			return "", err
		}
	}
	comment := strings.TrimSpace(b.Comment)
	switch {
	case required && comment == "":
		return "", invalid("comment", MsgCommentNeeded)
	case utf8.RuneCountInString(comment) > maxComment:
		return "", invalid("comment", MsgCommentTooLong)
	}
	return comment, nil
}

// act runs an action on a locked item in one transaction and answers the item as it is after it;
// the outbox rows the action adds are sent once it commits.
func (s *Service) act(c echo.Context, message string, do func(ctx context.Context, tx *sqlx.Tx, it Item, userID int64) ([]int64, error)) error {
	id, err := itemID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	it, err := get(ctx, tx, id, true)
	if errors.Is(err, errNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	outboxIDs, err := do(ctx, tx, it, auth.Caller(c).User.ID)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if len(outboxIDs) > 0 {
		// Committed: if Redis is away now, the relay sends the tasks later.
		if _, err := s.d.Relay.Dispatch(ctx, outboxIDs...); err != nil {
			s.d.Log.Warn("review tasks left for the relay", "item", id, "err", err)
		}
	}
	out, err := s.detail(ctx, id)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, message, out)
}

// handleApprove moves a reviewed print file on: approved, ready for print.
func (s *Service) handleApprove(c echo.Context) error {
	comment, err := readComment(c, false)
	if err != nil {
		return err
	}
	return s.act(c, MsgApproved, func(ctx context.Context, tx *sqlx.Tx, it Item, userID int64) ([]int64, error) {
		if it.Status != StatusReviewing {
			return nil, conflict(MsgNotReviewable)
		}
		if it.PrintStatus != tasks.PrintDone {
			return nil, conflict(MsgNotReady)
		}
		if err := setStatus(ctx, tx, it.ID, StatusApproved); err != nil {
			return nil, err
		}
		return nil, record(ctx, tx, it.ID, userID, ActionApprove, comment, it.Revision)
	})
}

// handleReject sends the item back to the seller with the designer's comment, as a notification
// raised in the same transaction.
func (s *Service) handleReject(c echo.Context) error {
	comment, err := readComment(c, true)
	if err != nil {
		return err
	}
	return s.act(c, MsgRejected, func(ctx context.Context, tx *sqlx.Tx, it Item, userID int64) ([]int64, error) {
		if it.Status != StatusReviewing && it.Status != StatusDesigning {
			return nil, conflict(MsgNotReviewable)
		}
		if err := setStatus(ctx, tx, it.ID, StatusRejected); err != nil {
			return nil, err
		}
		if err := record(ctx, tx, it.ID, userID, ActionReject, comment, it.Revision); err != nil {
			return nil, err
		}
		seller := it.SellerID
		_, err := notifications.Add(ctx, tx, notifications.Notification{
			SellerID:         &seller,
			Subject:          rejectSubject(it),
			Message:          "<p>A designer sent the print file of <strong>" + html.EscapeString(it.ProductName) + "</strong> back:</p><p>" + html.EscapeString(comment) + "</p>",
			CallToActionLink: "/orders",
			IsWarning:        true,
		})
		return nil, err
	})
}

// rejectSubject is the notification's subject: the order and the product, within the subject limit.
func rejectSubject(it Item) string {
	s := "Print file rejected: order " + it.OrderNumber + ", " + it.ProductName
	if utf8.RuneCountInString(s) > notifications.MaxSubjectLength {
		s = string([]rune(s)[:notifications.MaxSubjectLength])
	}
	return s
}

// replaceBody names the upload that replaces the print file.
type replaceBody struct {
	UploadID int64 `json:"upload_id"`
}

// handleReplace makes one of the caller's ready, sanitized PNG uploads the item's print file: a new
// revision, measured and tiled by render:tiles.
func (s *Service) handleReplace(c echo.Context) error {
	var b replaceBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if b.UploadID <= 0 {
		return invalid("upload_id", MsgUploadUnusable)
	}
	return s.act(c, MsgReplaced, func(ctx context.Context, tx *sqlx.Tx, it Item, userID int64) ([]int64, error) {
		if it.Status == StatusApproved {
			return nil, conflict(MsgAlreadyDone)
		}
		u, err := uploadOf(ctx, tx, userID, b.UploadID)
		switch {
		case errors.Is(err, errNotFound):
			return nil, invalid("upload_id", MsgUploadUnusable)
		case err != nil:
			return nil, err
		case u.Status == uploads.StatusPending:
			return nil, conflict(MsgUploadPending)
		case u.Status != uploads.StatusReady || u.ContentType != "image/png":
			return nil, invalid("upload_id", MsgUploadUnusable)
		}
		info, err := s.d.Store.Stat(ctx, u.Key)
		if errors.Is(err, blob.ErrNotFound) {
			return nil, invalid("upload_id", MsgUploadUnusable)
		}
		if err != nil {
			return nil, err
		}
		if tasks.BlobVersion(info) != u.Version {
			return nil, conflict(MsgUploadChanged)
		}
		rev, err := newRevision(ctx, tx, it.ID, u.Key)
		if err != nil {
			return nil, err
		}
		if err := record(ctx, tx, it.ID, userID, ActionReplace, "", rev); err != nil {
			return nil, err
		}
		return enqueue(ctx, tx, tasks.NewTilesJob, it.ID, rev)
	})
}

// handleRerender renders the print file again from the design document: a new revision.
func (s *Service) handleRerender(c echo.Context) error {
	return s.act(c, MsgRerendering, func(ctx context.Context, tx *sqlx.Tx, it Item, userID int64) ([]int64, error) {
		if it.Status == StatusApproved {
			return nil, conflict(MsgAlreadyDone)
		}
		rev, err := newRevision(ctx, tx, it.ID, "")
		if err != nil {
			return nil, err
		}
		if err := record(ctx, tx, it.ID, userID, ActionRerender, "", rev); err != nil {
			return nil, err
		}
		return enqueue(ctx, tx, tasks.NewOrderExportJob, it.ID, rev)
	})
}

// enqueue adds the renderer's task for an item's revision to the outbox, at interactive priority: a
// designer is waiting for it.
func enqueue(ctx context.Context, tx *sqlx.Tx, newJob func(int64, int64, queue.Priority) (queue.Job, error), id, rev int64) ([]int64, error) {
	job, err := newJob(id, rev, queue.Interactive)
	if err != nil {
		return nil, err
	}
	oid, err := outbox.Add(ctx, tx, job)
	if err != nil {
		return nil, err
	}
	return []int64{oid}, nil
}
