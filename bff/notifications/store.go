package notifications

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
)

// ErrNotFound means the notification does not exist or is not meant for the account asking.
var ErrNotFound = errors.New("notification not found")

// store is the SQL of the package. Every query takes the account ($1) the notifications are shown
// in and sees only those meantFor it.
type store struct{ db *sqlx.DB }

// meantFor holds for the notifications of account $1: those posted to it, and those for every
// seller when it is a seller's account (its roles hold seller, or it has none: a user
// without roles counts as a seller). Admins, designers and team members in their own accounts get
// only their own. A team member switched into a seller's account asks with the seller's id.
const meantFor = `(n.seller_id = $1 OR (n.seller_id IS NULL AND EXISTS (
    SELECT 1 FROM users u WHERE u.id = $1 AND ('seller' = ANY (u.roles) OR u.roles = '{}'))))`

// visible selects the notifications of account $1 with its state (no state row: new, untouched).
const visible = `
SELECT n.id, n.seller_id, n.subject, n.message, n.image, n.call_to_action_link, n.type, n.is_warning,
       n.created_by, n.created_at, s.read_at IS NULL AS is_new
FROM notifications n
LEFT JOIN notification_states s ON s.notification_id = n.id AND s.user_id = $1
WHERE ` + meantFor

// served is list with each message sanitized again on the way out.
func served(list []Notification) []Notification {
	for i := range list {
		list[i].Message = SanitizeHTML(list[i].Message)
	}
	return list
}

// page is one page of account's notifications, newest first, and how many there are.
func (s store) page(ctx context.Context, account int64, limit, offset int) ([]Notification, int, error) {
	count := `SELECT count(*) FROM notifications n WHERE ` + meantFor
	var total int
	if err := s.db.GetContext(ctx, &total, count, account); err != nil {
		return nil, 0, fmt.Errorf("count notifications: %w", err)
	}
	out := []Notification{}
	if err := s.db.SelectContext(ctx, &out, visible+` ORDER BY n.id DESC LIMIT $2 OFFSET $3`, account, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list notifications: %w", err)
	}
	return served(out), total, nil
}

// unread counts account's notifications it has not read.
func (s store) unread(ctx context.Context, account int64) (int, error) {
	const q = `
SELECT count(*) FROM notifications n
WHERE ` + meantFor + `
  AND NOT EXISTS (SELECT 1 FROM notification_states s
                  WHERE s.user_id = $1 AND s.notification_id = n.id AND s.read_at IS NOT NULL)`
	var n int
	if err := s.db.GetContext(ctx, &n, q, account); err != nil {
		return 0, fmt.Errorf("count unread notifications: %w", err)
	}
	return n, nil
}

// latest is account's newest limit notifications.
func (s store) latest(ctx context.Context, account int64, limit int) ([]Notification, error) {
	out := []Notification{}
	if err := s.db.SelectContext(ctx, &out, visible+` ORDER BY n.id DESC LIMIT $2`, account, limit); err != nil {
		return nil, fmt.Errorf("latest notifications: %w", err)
	}
	return served(out), nil
}

// popup is what the popup offers account, newest first: unread, not dismissed, and for TypeOnce
// not yet seen in a popup.
func (s store) popup(ctx context.Context, account int64, limit int) ([]Notification, error) {
	q := visible + `
  AND s.read_at IS NULL AND s.dismissed_at IS NULL AND NOT (n.type = 2 AND s.seen_at IS NOT NULL)
ORDER BY n.id DESC LIMIT $2`
	out := []Notification{}
	if err := s.db.SelectContext(ctx, &out, q, account, limit); err != nil {
		return nil, fmt.Errorf("popup notifications: %w", err)
	}
	return served(out), nil
}

// get is notification id of account, or ErrNotFound.
func (s store) get(ctx context.Context, account, id int64) (Notification, error) {
	var n Notification
	err := s.db.GetContext(ctx, &n, visible+` AND n.id = $2`, account, id)
	if errors.Is(err, sql.ErrNoRows) {
		return n, ErrNotFound
	}
	if err != nil {
		return n, fmt.Errorf("get notification %d: %w", id, err)
	}
	n.Message = SanitizeHTML(n.Message)
	return n, nil
}

// Upserts of one state column; the first time counts, later ones keep it. $2 lists the ids, which
// must be meant for account $1.
const (
	markRead = `
INSERT INTO notification_states (user_id, notification_id, read_at)
SELECT $1, n.id, now() FROM notifications n
WHERE n.id = ANY($2) AND ` + meantFor + `
ON CONFLICT (user_id, notification_id)
DO UPDATE SET read_at = COALESCE(notification_states.read_at, EXCLUDED.read_at)`
	markDismissed = `
INSERT INTO notification_states (user_id, notification_id, dismissed_at)
SELECT $1, n.id, now() FROM notifications n
WHERE n.id = ANY($2) AND ` + meantFor + `
ON CONFLICT (user_id, notification_id)
DO UPDATE SET dismissed_at = COALESCE(notification_states.dismissed_at, EXCLUDED.dismissed_at)`
	markSeen = `
INSERT INTO notification_states (user_id, notification_id, seen_at)
SELECT $1, n.id, now() FROM notifications n
WHERE n.id = ANY($2) AND ` + meantFor + `
ON CONFLICT (user_id, notification_id)
DO UPDATE SET seen_at = COALESCE(notification_states.seen_at, EXCLUDED.seen_at)`
)

// mark runs one of the upserts for ids and returns how many of them are meant for account.
func (s store) mark(ctx context.Context, upsert string, account int64, ids []int64) (int64, error) {
	res, err := s.db.ExecContext(ctx, upsert, account, pq.Int64Array(ids))
	if err != nil {
		return 0, fmt.Errorf("mark notifications: %w", err)
	}
	return res.RowsAffected()
}

// markAllRead marks every unread notification of account read and returns how many there were.
func (s store) markAllRead(ctx context.Context, account int64) (int64, error) {
	const q = `
INSERT INTO notification_states (user_id, notification_id, read_at)
SELECT $1, n.id, now() FROM notifications n
WHERE ` + meantFor + `
  AND NOT EXISTS (SELECT 1 FROM notification_states s
                  WHERE s.user_id = $1 AND s.notification_id = n.id AND s.read_at IS NOT NULL)
ON CONFLICT (user_id, notification_id) DO UPDATE SET read_at = EXCLUDED.read_at`
	res, err := s.db.ExecContext(ctx, q, account)
	if err != nil {
		return 0, fmt.Errorf("mark all notifications read: %w", err)
	}
	return res.RowsAffected()
}

// isSeller reports whether id is an account holding the seller role.
func (s store) isSeller(ctx context.Context, id int64) (bool, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, `SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND $2 = ANY (roles))`, id, access.RoleSeller)
	if err != nil {
		return false, fmt.Errorf("check seller %d: %w", id, err)
	}
	return ok, nil
}
