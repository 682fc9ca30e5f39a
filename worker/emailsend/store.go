package emailsend

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// MsgInterrupted is the error of a delivery a worker claimed but never finished: it stays failed
// rather than be mailed again, since the message may already have left.
const MsgInterrupted = "The send stopped while this message was being delivered; it is not sent again so it cannot arrive twice."

// ErrNoCampaign means the task names a campaign that no longer exists.
var ErrNoCampaign = errors.New("no such campaign")

type campaign struct {
	ID         int64  `db:"id"`
	StoreID    int64  `db:"store_id"`
	StoreName  string `db:"store_name"`
	Subject    string `db:"subject"`
	BodyHTML   string `db:"body_html"`
	Status     string `db:"status"`
	Recipients int    `db:"recipients"`
	// The campaign's sender: name, address (username@domain) and whether its domain is verified;
	// empty without a sender.
	SenderName     string `db:"sender_name"`
	SenderAddress  string `db:"sender_address"`
	SenderVerified bool   `db:"sender_verified"`
}

type delivery struct {
	ID         int64  `db:"id"`
	Email      string `db:"email"`
	FirstName  string `db:"first_name"`
	LastName   string `db:"last_name"`
	Token      string `db:"token"`
	Subscribed bool   `db:"subscribed"`
}

// store holds the SQL of a send.
type store struct{ db *sqlx.DB }

func (s store) campaign(ctx context.Context, id int64) (campaign, error) {
	var c campaign
	const q = `SELECT c.id, c.store_id, st.name AS store_name, c.subject, c.body_html, c.status, c.recipients,
	coalesce(s.name, '') AS sender_name, coalesce(s.username || '@' || d.domain, '') AS sender_address,
	coalesce(d.verified_at IS NOT NULL, false) AS sender_verified
FROM email_campaigns c
JOIN stores st ON st.id = c.store_id
LEFT JOIN email_senders s ON s.id = c.sender_id
LEFT JOIN store_domains d ON d.id = s.store_domain_id
WHERE c.id = $1`
	err := s.db.GetContext(ctx, &c, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNoCampaign
	}
	return c, err
}

// start marks the campaign sending (keeping the first start time) and fails the deliveries an
// earlier attempt left claimed; it answers how many those were.
func (s store) start(ctx context.Context, id int64) (int, error) {
	const q = `
WITH lost AS (
    UPDATE email_campaign_deliveries SET status = 'failed', error = $2
    WHERE campaign_id = $1 AND status = 'sending' RETURNING 1
)
UPDATE email_campaigns SET status = 'sending', started_at = coalesce(started_at, now()), updated_at = now(),
    failed = failed + (SELECT count(*) FROM lost)
WHERE id = $1 RETURNING (SELECT count(*) FROM lost)`
	var lost int
	err := s.db.GetContext(ctx, &lost, q, id, MsgInterrupted)
	return lost, err
}

// addRecipients adds delivery rows for one page of the store's subscribed subscribers after
// subscriber id after, those who were on the list when the send first started. It answers the last
// subscriber id read (0 when the page was empty).
func (s store) addRecipients(ctx context.Context, c campaign, after int64, limit int) (int64, error) {
	const q = `
WITH page AS (
    SELECT s.id, s.email FROM email_subscribers s, email_campaigns c
    WHERE c.id = $1 AND s.store_id = $2 AND s.status = 'subscribed' AND s.id > $3 AND s.created_at <= c.started_at
    ORDER BY s.id LIMIT $4
), added AS (
    INSERT INTO email_campaign_deliveries (campaign_id, subscriber_id, email)
    SELECT $1, id, email FROM page ON CONFLICT (campaign_id, subscriber_id) DO NOTHING
)
SELECT coalesce(max(id), 0) FROM page`
	var last int64
	err := s.db.GetContext(ctx, &last, q, c.ID, c.StoreID, after, limit)
	return last, err
}

// countRecipients records how many deliveries the campaign has.
func (s store) countRecipients(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE email_campaigns SET recipients = (SELECT count(*) FROM email_campaign_deliveries WHERE campaign_id = $1), updated_at = now() WHERE id = $1`, id)
	return err
}

// claim marks up to limit pending deliveries of the campaign as being sent and returns them, with
// whether their subscriber is still subscribed. Rows another worker holds are skipped.
func (s store) claim(ctx context.Context, id int64, limit int) ([]delivery, error) {
	const q = `
WITH picked AS (
    SELECT id FROM email_campaign_deliveries WHERE campaign_id = $1 AND status = 'pending'
    ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
)
UPDATE email_campaign_deliveries d SET status = 'sending'
FROM picked, email_subscribers s
WHERE d.id = picked.id AND s.id = d.subscriber_id
RETURNING d.id, d.email, s.first_name, s.last_name, d.token, s.status = 'subscribed' AS subscribed`
	var out []delivery
	if err := s.db.SelectContext(ctx, &out, q, id, limit); err != nil {
		return nil, fmt.Errorf("claim deliveries of campaign %d: %w", id, err)
	}
	return out, nil
}

// release puts claimed deliveries that were not attempted back to pending.
func (s store) release(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.db.ExecContext(ctx, `UPDATE email_campaign_deliveries SET status = 'pending' WHERE id = ANY($1) AND status = 'sending'`, pq.Array(ids))
	return err
}

// settle records the outcome of one claimed delivery (sent, failed or skipped) and counts it on the
// campaign.
func (s store) settle(ctx context.Context, d delivery, status, msg string) error {
	const q = `
WITH d AS (
    UPDATE email_campaign_deliveries SET status = $2, error = $3, sent_at = CASE WHEN $2 = 'sent' THEN $4::timestamptz END
    WHERE id = $1 AND status = 'sending' RETURNING campaign_id
)
UPDATE email_campaigns SET updated_at = now(),
    sent = sent + CASE WHEN $2 = 'sent' THEN 1 ELSE 0 END,
    failed = failed + CASE WHEN $2 = 'failed' THEN 1 ELSE 0 END
WHERE id = (SELECT campaign_id FROM d)`
	_, err := s.db.ExecContext(ctx, q, d.ID, status, msg, time.Now())
	return err
}

// finish closes the send: sent, or failed when nobody could be mailed.
func (s store) finish(ctx context.Context, id int64) error {
	const q = `
UPDATE email_campaigns SET finished_at = now(), updated_at = now(),
    status = CASE WHEN sent = 0 AND failed > 0 THEN 'failed' ELSE 'sent' END,
    error = CASE WHEN sent = 0 AND failed > 0 THEN coalesce((SELECT error FROM email_campaign_deliveries
        WHERE campaign_id = $1 AND status = 'failed' ORDER BY id LIMIT 1), '') ELSE '' END
WHERE id = $1`
	_, err := s.db.ExecContext(ctx, q, id)
	return err
}

// fail closes the send as failed with msg.
func (s store) fail(ctx context.Context, id int64, msg string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE email_campaigns SET status = 'failed', error = $2, finished_at = now(), updated_at = now() WHERE id = $1`, id, msg)
	return err
}
