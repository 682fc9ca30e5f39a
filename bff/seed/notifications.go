package seed

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/notifications"
)

// demoNotifications are the demo seller's notifications, oldest first: one regular, one warning and
// one shown in the popup only once (type 2).
var demoNotifications = []notifications.Notification{
	{
		Subject: "Welcome to Pressroom",
		Message: `<p>Your dashboard is ready. Start with <strong>a storefront</strong>, then launch your first campaign.</p>` +
			`<ul><li>Design print areas in the editor</li><li>Bulk-upload artworks</li><li>Track orders as they come in</li></ul>`,
		CallToActionLink: "/campaigns",
		Type:             notifications.TypeRegular,
	},
	{
		Subject:          "Add a payment account to receive payouts",
		Message:          `<p>Payouts are held until a <em>valid</em> payment account is on file.</p>`,
		CallToActionLink: "/settings/payment-account",
		Type:             notifications.TypeRegular,
		IsWarning:        true,
	},
	{
		Subject:          "New: all-over print templates",
		Message:          `<p>All-over print hoodies and tees are now in the catalogue, with 3D mockups.</p>`,
		CallToActionLink: "/campaigns/aop/edit",
		Type:             notifications.TypeOnce,
	},
}

// seedNotifications gives the demo seller its notifications once; a second run adds none. The test
// deployment records them read, so the browser tests of other screens open without the popup
// (ui/e2e/notifications.e2e.ts posts its own).
func seedNotifications(ctx context.Context, tx *sqlx.Tx, env string) error {
	var sellerID int64
	if err := tx.GetContext(ctx, &sellerID, `SELECT id FROM users WHERE lower(email) = 'seller@example.com'`); err != nil {
		return fmt.Errorf("seed notifications: find the demo seller: %w", err)
	}
	var seeded bool
	if err := tx.GetContext(ctx, &seeded, `SELECT EXISTS (SELECT 1 FROM notifications WHERE seller_id = $1)`, sellerID); err != nil {
		return fmt.Errorf("seed notifications: %w", err)
	}
	if seeded {
		return nil
	}
	for _, n := range demoNotifications {
		n.SellerID = &sellerID
		id, err := notifications.Add(ctx, tx, n)
		if err != nil {
			return fmt.Errorf("seed notification %q: %w", n.Subject, err)
		}
		if env != "test" {
			continue
		}
		const read = `INSERT INTO notification_states (user_id, notification_id, read_at) VALUES ($1, $2, now())`
		if _, err := tx.ExecContext(ctx, read, sellerID, id); err != nil {
			return fmt.Errorf("seed notification %q read: %w", n.Subject, err)
		}
	}
	return nil
}
