package webhooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/orders"
)

// ErrNotFound is an endpoint or delivery that does not exist or is another seller's.
var ErrNotFound = errors.New("webhooks: not found")

// Endpoint is a seller's endpoint as stored. For telegram, URL is the bot token.
type Endpoint struct {
	ID             int64          `db:"id" json:"id"`
	SellerID       int64          `db:"seller_id" json:"-"`
	Kind           string         `db:"kind" json:"kind"`
	Name           string         `db:"name" json:"name"`
	URL            string         `db:"url" json:"url"`
	ChatID         string         `db:"chat_id" json:"chat_id"`
	Secret         string         `db:"secret" json:"secret"`
	Events         pq.StringArray `db:"events" json:"events"`
	Enabled        bool           `db:"enabled" json:"enabled"`
	DisabledReason string         `db:"disabled_reason" json:"disabled_reason"`
	FailingSince   *time.Time     `db:"failing_since" json:"failing_since"`
	CreatedAt      time.Time      `db:"created_at" json:"created_at"`
	UpdatedAt      time.Time      `db:"updated_at" json:"updated_at"`
}

// Delivery is one event on its way to one endpoint.
type Delivery struct {
	ID            int64           `db:"id" json:"id"`
	EndpointID    int64           `db:"endpoint_id" json:"endpoint_id"`
	EventID       *int64          `db:"event_id" json:"event_id"`
	OrderID       *int64          `db:"order_id" json:"order_id"`
	EventType     string          `db:"event_type" json:"event_type"`
	Payload       json.RawMessage `db:"payload" json:"payload"`
	Status        string          `db:"status" json:"status"`
	Attempts      int             `db:"attempts" json:"attempts"`
	NextAttemptAt time.Time       `db:"next_attempt_at" json:"next_attempt_at"`
	RetryUntil    time.Time       `db:"retry_until" json:"-"`
	LastStatus    *int            `db:"last_status" json:"last_status"`
	LastError     string          `db:"last_error" json:"last_error"`
	CreatedAt     time.Time       `db:"created_at" json:"created_at"`
	FinishedAt    *time.Time      `db:"finished_at" json:"finished_at"`
}

// Delivery statuses.
const (
	StatusPending   = "pending"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
)

// Attempt is one try of a delivery: the answer's status (nil when none came), how long it took,
// the first kilobyte of the answer's body, or the error that stopped it.
type Attempt struct {
	ID          int64     `db:"id" json:"id"`
	DeliveryID  int64     `db:"delivery_id" json:"delivery_id"`
	AttemptedAt time.Time `db:"attempted_at" json:"attempted_at"`
	StatusCode  *int      `db:"status_code" json:"status_code"`
	LatencyMS   int       `db:"latency_ms" json:"latency_ms"`
	Response    string    `db:"response" json:"response"`
	Error       string    `db:"error" json:"error"`
}

// Succeeded reports whether the attempt counts as delivered: a 2xx answer.
func (a Attempt) Succeeded() bool {
	return a.StatusCode != nil && *a.StatusCode >= 200 && *a.StatusCode < 300
}

const endpointCols = `id, seller_id, kind, name, url, chat_id, secret, events, enabled, disabled_reason, failing_since, created_at, updated_at`

// List is a seller's endpoints, oldest first.
func List(ctx context.Context, db sqlx.QueryerContext, sellerID int64) ([]Endpoint, error) {
	out := []Endpoint{}
	err := sqlx.SelectContext(ctx, db, &out, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE seller_id = $1 ORDER BY id`, sellerID)
	return out, err
}

// Get is one of a seller's endpoints, or ErrNotFound.
func Get(ctx context.Context, db sqlx.QueryerContext, sellerID, id int64) (Endpoint, error) {
	var e Endpoint
	err := sqlx.GetContext(ctx, db, &e, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE seller_id = $1 AND id = $2`, sellerID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	}
	return e, err
}

// stored is the URL column of an input: the bot token for telegram.
func stored(in Input) string {
	if in.Kind == KindTelegram {
		return in.BotToken
	}
	return in.URL
}

// Create stores a checked input as a new endpoint of the seller, with a fresh secret.
func Create(ctx context.Context, db sqlx.QueryerContext, sellerID int64, in Input) (Endpoint, error) {
	enabled := in.Enabled == nil || *in.Enabled
	var e Endpoint
	err := sqlx.GetContext(ctx, db, &e, `INSERT INTO webhook_endpoints (seller_id, kind, name, url, chat_id, secret, events, enabled)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING `+endpointCols,
		sellerID, in.Kind, in.Name, stored(in), in.ChatID, NewSecret(), pq.StringArray(in.Events), enabled)
	return e, err
}

// Update replaces a seller's endpoint with a checked input; enabling it again clears its failure
// record. The secret is kept.
func Update(ctx context.Context, db sqlx.QueryerContext, sellerID, id int64, in Input) (Endpoint, error) {
	var e Endpoint
	err := sqlx.GetContext(ctx, db, &e, `UPDATE webhook_endpoints SET kind = $3, name = $4, url = $5, chat_id = $6, events = $7,
		enabled = coalesce($8, enabled),
		disabled_reason = CASE WHEN coalesce($8, enabled) THEN '' ELSE disabled_reason END,
		failing_since = CASE WHEN $8 AND NOT enabled THEN NULL ELSE failing_since END,
		updated_at = now()
		WHERE seller_id = $1 AND id = $2 RETURNING `+endpointCols,
		sellerID, id, in.Kind, in.Name, stored(in), in.ChatID, pq.StringArray(in.Events), in.Enabled)
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	}
	return e, err
}

// Delete removes a seller's endpoint and its log.
func Delete(ctx context.Context, db sqlx.ExecerContext, sellerID, id int64) error {
	res, err := db.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE seller_id = $1 AND id = $2`, sellerID, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Deliveries is a page of an endpoint's log, newest first, and the total.
func Deliveries(ctx context.Context, db sqlx.QueryerContext, endpointID int64, limit, offset int) ([]Delivery, int, error) {
	out := []Delivery{}
	if err := sqlx.SelectContext(ctx, db, &out, `SELECT id, endpoint_id, event_id, order_id, event_type, payload, status, attempts,
		next_attempt_at, retry_until, last_status, last_error, created_at, finished_at
		FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, endpointID, limit, offset); err != nil {
		return nil, 0, err
	}
	var total int
	err := sqlx.GetContext(ctx, db, &total, `SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1`, endpointID)
	return out, total, err
}

// Attempts is the tries of a delivery of an endpoint, newest first (at most 50).
func Attempts(ctx context.Context, db sqlx.QueryerContext, endpointID, deliveryID int64) ([]Attempt, error) {
	out := []Attempt{}
	err := sqlx.SelectContext(ctx, db, &out, `SELECT a.id, a.delivery_id, a.attempted_at, a.status_code, a.latency_ms, a.response, a.error
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.endpoint_id = $1 AND d.id = $2 ORDER BY a.id DESC LIMIT 50`, endpointID, deliveryID)
	return out, err
}

// Replay queues a delivery of an endpoint for one more try now, whatever its state; a delivery
// in flight is left to finish first.
func Replay(ctx context.Context, db sqlx.ExecerContext, endpointID, deliveryID int64) error {
	res, err := db.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(),
		retry_until = now(), finished_at = NULL WHERE endpoint_id = $1 AND id = $2`, endpointID, deliveryID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// SendTest queues a test message to an endpoint, tried once, and answers its delivery.
func SendTest(ctx context.Context, db sqlx.QueryerContext, endpointID int64) (Delivery, error) {
	var d Delivery
	err := sqlx.GetContext(ctx, db, &d, `INSERT INTO webhook_deliveries (endpoint_id, event_type, payload, retry_until)
		VALUES ($1, $2, jsonb_build_object('event', $2::text, 'occurred_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')), now())
		RETURNING id, endpoint_id, event_id, order_id, event_type, payload, status, attempts, next_attempt_at, retry_until,
		last_status, last_error, created_at, finished_at`, endpointID, EventTest)
	return d, err
}

// fanOutLock serialises fan-outs, so deliveries of one order's events are created in the events'
// order.
const fanOutLock = 7_240_072

// FanOut turns up to limit undelivered events of event_outbox into deliveries, one per enabled
// endpoint of the event's seller subscribed to its type (at most once: a delivery is unique per
// event and endpoint), marks them delivered to the fan-out, and answers how many events it took.
func FanOut(ctx context.Context, db *sqlx.DB, retryFor time.Duration, limit int) (int, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, fanOutLock); err != nil {
		return 0, err
	}
	var n int
	err = tx.GetContext(ctx, &n, `WITH ev AS (
		SELECT id, seller_id, order_id, event_type, payload, created_at FROM event_outbox
		WHERE delivered_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE
	), ins AS (
		INSERT INTO webhook_deliveries (endpoint_id, event_id, order_id, event_type, payload, retry_until, created_at)
		SELECT e.id, ev.id, ev.order_id, ev.event_type, ev.payload, ev.created_at + make_interval(secs => $2), ev.created_at
		FROM ev JOIN webhook_endpoints e ON e.seller_id = ev.seller_id AND e.enabled AND ev.event_type = ANY (e.events)
		ORDER BY ev.id, e.id
		ON CONFLICT (event_id, endpoint_id) DO NOTHING
	), done AS (
		UPDATE event_outbox o SET delivered_at = now() FROM ev WHERE o.id = ev.id
	)
	SELECT count(*) FROM ev`, limit, retryFor.Seconds())
	if err != nil {
		return 0, fmt.Errorf("webhook fan-out: %w", err)
	}
	return n, tx.Commit()
}

// Due is a claimed delivery with its endpoint.
type Due struct {
	Delivery
	Endpoint Endpoint
}

// Claim leases up to limit deliveries due at now, to enabled endpoints, until now+lease, and
// answers them (test sends go to disabled endpoints too). A delivery is due only when no earlier event of the same order is still pending
// for the same endpoint, so an order's events arrive in order.
func Claim(ctx context.Context, db *sqlx.DB, now time.Time, lease time.Duration, limit int) ([]Due, error) {
	rows, err := db.QueryxContext(ctx, `WITH c AS (
		SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND (e.enabled OR d.event_id IS NULL)
		WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.leased_until IS NULL OR d.leased_until < $1)
		AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id AND p.order_id = d.order_id
			AND p.event_id < d.event_id AND p.status = 'pending')
		ORDER BY d.next_attempt_at, d.id LIMIT $3 FOR UPDATE OF d SKIP LOCKED
	)
	UPDATE webhook_deliveries d SET leased_until = $2 FROM c, webhook_endpoints e WHERE d.id = c.id AND e.id = d.endpoint_id
	RETURNING d.id, d.endpoint_id, d.event_id, d.order_id, d.event_type, d.payload, d.status, d.attempts, d.next_attempt_at,
		d.retry_until, d.last_status, d.last_error, d.created_at, d.finished_at,
		e.id, e.seller_id, e.kind, e.name, e.url, e.chat_id, e.secret, e.events, e.enabled, e.disabled_reason, e.failing_since,
		e.created_at, e.updated_at`, now, now.Add(lease), limit)
	if err != nil {
		return nil, fmt.Errorf("webhook claim: %w", err)
	}
	defer rows.Close()
	var out []Due
	for rows.Next() {
		var d Due
		x, e := &d.Delivery, &d.Endpoint
		if err := rows.Scan(&x.ID, &x.EndpointID, &x.EventID, &x.OrderID, &x.EventType, &x.Payload, &x.Status, &x.Attempts,
			&x.NextAttemptAt, &x.RetryUntil, &x.LastStatus, &x.LastError, &x.CreatedAt, &x.FinishedAt,
			&e.ID, &e.SellerID, &e.Kind, &e.Name, &e.URL, &e.ChatID, &e.Secret, &e.Events, &e.Enabled, &e.DisabledReason,
			&e.FailingSince, &e.CreatedAt, &e.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// Backoff is the wait after the n-th failed try of a delivery (n from 1): base, doubled after each
// failure, at most max.
func Backoff(n int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}

// Messages of the seller's notification of a disabled endpoint.
const (
	MsgDisabledSubject = "A webhook endpoint was turned off"
	MsgDisabledBody    = "%s failed every delivery for %s and was turned off. Fix it and turn it on again in the notification settings; the events it missed are delivered then."
	MsgDisabledReason  = "Turned off after failing every delivery for %s."
	LinkSettings       = "/settings/notification"
)

// Outcome is one try of a claimed delivery and the wait before its next try should it have failed.
type Outcome struct {
	Due
	Attempt Attempt
	Wait    time.Duration
}

// Record writes the outcomes of a batch of tries in one transaction: a 2xx answer delivers its
// delivery (recordSuccesses), anything else is a failure (recordFailure). It answers the endpoints it
// turned off.
func Record(ctx context.Context, db *sqlx.DB, outcomes []Outcome, retryFor time.Duration) ([]int64, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	var off []int64
	var rest []Outcome
	var ok []Outcome
	for _, o := range outcomes {
		if o.Attempt.Succeeded() {
			ok = append(ok, o)
		} else {
			rest = append(rest, o)
		}
	}
	if err := recordSuccesses(ctx, tx, ok); err != nil {
		return nil, err
	}
	for _, o := range rest {
		turnedOff, err := recordFailure(ctx, tx, o.Due, o.Attempt, o.Wait, retryFor)
		if err != nil {
			return nil, fmt.Errorf("delivery %d: %w", o.ID, err)
		}
		if turnedOff {
			off = append(off, o.Endpoint.ID)
		}
	}
	return off, tx.Commit()
}

// recordSuccesses writes the delivered tries of a batch in three statements: their attempts, their
// deliveries delivered, their endpoints healthy again.
func recordSuccesses(ctx context.Context, tx *sqlx.Tx, ok []Outcome) error {
	if len(ok) == 0 {
		return nil
	}
	n := len(ok)
	ids, codes, lat := make([]int64, n), make([]int64, n), make([]int64, n)
	at, resp, errs := make([]string, n), make([]string, n), make([]string, n)
	var endpoints []int64
	for i, o := range ok {
		ids[i], codes[i], lat[i] = o.ID, int64(*o.Attempt.StatusCode), int64(o.Attempt.LatencyMS)
		at[i], resp[i], errs[i] = o.Attempt.AttemptedAt.UTC().Format(time.RFC3339Nano), o.Attempt.Response, o.Attempt.Error
		if o.EventID != nil {
			endpoints = append(endpoints, o.Endpoint.ID)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response, error)
		SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[])`,
		pq.Array(ids), pq.Array(at), pq.Array(codes), pq.Array(lat), pq.Array(resp), pq.Array(errs)); err != nil {
		return fmt.Errorf("webhook attempts: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries d SET status = 'succeeded', attempts = d.attempts + 1,
		last_status = u.code, last_error = '', finished_at = u.at, leased_until = NULL
		FROM unnest($1::bigint[], $2::int[], $3::timestamptz[]) u(id, code, at) WHERE d.id = u.id`,
		pq.Array(ids), pq.Array(codes), pq.Array(at)); err != nil {
		return fmt.Errorf("webhook deliveries: %w", err)
	}
	if len(endpoints) > 0 {
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY ($1) AND failing_since IS NOT NULL`,
			pq.Array(endpoints)); err != nil {
			return err
		}
	}
	return nil
}

// recordFailure writes the failed try a of d, tried at a.AttemptedAt: it schedules the next try
// after wait, or gives up once the retry window has passed.
// An endpoint that has failed every event delivery for retryFor is turned off and its seller
// notified, in the same transaction. It answers whether it turned the endpoint off.
func recordFailure(ctx context.Context, tx *sqlx.Tx, d Due, a Attempt, wait, retryFor time.Duration) (bool, error) {
	now := a.AttemptedAt
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response, error)
		VALUES ($1, $2, $3, $4, $5, $6)`, d.ID, now, a.StatusCode, a.LatencyMS, a.Response, a.Error); err != nil {
		return false, fmt.Errorf("webhook attempt: %w", err)
	}
	msg := a.Error
	if msg == "" && a.StatusCode != nil {
		msg = fmt.Sprintf("HTTP %d", *a.StatusCode)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = $2, last_error = $3,
		leased_until = NULL,
		status = CASE WHEN $4 >= retry_until THEN 'failed' ELSE 'pending' END,
		finished_at = CASE WHEN $4 >= retry_until THEN $4 END,
		next_attempt_at = CASE WHEN $4 >= retry_until THEN next_attempt_at ELSE $5 END
		WHERE id = $1`, d.ID, a.StatusCode, msg, now, now.Add(wait)); err != nil {
		return false, err
	}
	if d.EventID == nil { // a test send says nothing of the endpoint's health
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL`,
		d.Endpoint.ID, now); err != nil {
		return false, err
	}
	var seller int64
	err := tx.GetContext(ctx, &seller, `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, updated_at = now()
		WHERE id = $1 AND enabled AND failing_since <= $2 RETURNING seller_id`,
		d.Endpoint.ID, now.Add(-retryFor), fmt.Sprintf(MsgDisabledReason, human(retryFor)))
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := orders.NotifySeller(ctx, tx, seller, MsgDisabledSubject,
		fmt.Sprintf(MsgDisabledBody, d.Endpoint.Label(), human(retryFor)), LinkSettings); err != nil {
		return false, err
	}
	return true, nil
}

// Label is how messages name an endpoint: its name, or its channel.
func (e Endpoint) Label() string {
	if e.Name != "" {
		return fmt.Sprintf("The endpoint %q", e.Name)
	}
	return "Your " + KindLabels[e.Kind] + " endpoint"
}

// KindLabels are the channels as people read them.
var KindLabels = map[string]string{KindCustom: "webhook", KindSlack: "Slack", KindDiscord: "Discord", KindTeams: "Microsoft Teams",
	KindTelegram: "Telegram"}

// human writes a retry window as "24 hours" or "90 minutes".
func human(d time.Duration) string {
	n, unit := int64(d/time.Minute), "minute"
	if d%time.Hour == 0 {
		n, unit = int64(d/time.Hour), "hour"
	}
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
