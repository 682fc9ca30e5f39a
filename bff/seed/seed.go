package seed

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/paymentaccounts"
	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/seal"
)

// DemoPassword is the password of every demo account.
const DemoPassword = "pressroom-demo"

// ErrProduction means the seed was asked to run against a production deployment.
var ErrProduction = errors.New("demo data is never seeded in production (PRESSROOM_ENV=production)")

type demoUser struct {
	email, name string
	roles       []string
	permissions []string
	tags        []string
}

// Demo accounts as DESIGN.md lists them.
var demoUsers = []demoUser{
	{email: "seller@example.com", name: "Sam Seller", roles: []string{auth.RoleSeller}, tags: []string{"notify"}},
	{email: "designer@example.com", name: "Dana Designer", roles: []string{auth.RoleDesigner}},
	{email: "admin@example.com", name: "Ada Admin", roles: []string{auth.RoleAdmin}},
	{email: "team@example.com", name: "Toni Team", roles: []string{"staff"}, permissions: teamPermissions},
	{email: "support@example.com", name: "Sol Support", roles: []string{"staff"}, permissions: supportPermissions},
	// A long-standing seller on the beta programme who keeps the old bulk campaign editor and works
	// fulfillment first (the tag-gated shell rules of docs/shell.md).
	{email: "veteran@example.com", name: "Vic Veteran", roles: []string{auth.RoleSeller}, tags: []string{"beta", "old bulk campaign", "fulfill"}},
}

// teamPermissions are what the team member may do in the seller's account.
var teamPermissions = []string{"get_orders", "get_campaigns", "get_reports"}

// supportPermissions are those of a second team member who may not see orders.
var supportPermissions = []string{"get_campaigns"}

// Deps is what the seed writes to.
type Deps struct {
	DB *sqlx.DB
	// Store receives the demo files (artwork) the demo rows point at; they are written under fixed
	// keys before the rows, so a second run rewrites the same files. The demo mockup templates are
	// drawn by the renderer (`renderer seed-demo`, package renderer/demoseed) after this seed.
	Store blob.Store
	// Env is the deployment's PRESSROOM_ENV; production is refused.
	Env        string
	BcryptCost int
	// Box seals the demo seller's payment account (PRESSROOM_PAYMENT_SECRET_KEY's box).
	Box *seal.Box
}

// Run seeds the demo data, idempotently.
func Run(ctx context.Context, d Deps) error {
	if d.Env == "production" {
		return ErrProduction
	}
	if d.DB == nil || d.Store == nil || d.Box == nil {
		return errors.New("seed: database, blob store and sealing box are required")
	}
	hash, err := auth.HashPassword(DemoPassword, d.BcryptCost)
	if err != nil {
		return err
	}
	tx, err := d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const insertUser = `
INSERT INTO users (name, email, password_hash, roles, permissions, tags, status, email_verified_at)
VALUES ($1, $2, $3, $4, $5, $6, 'verified', now())
ON CONFLICT ((lower(email))) DO NOTHING`
	for _, u := range demoUsers {
		if _, err := tx.ExecContext(ctx, insertUser, u.name, u.email, hash,
			pq.Array(u.roles), database.TextArray(u.permissions), database.TextArray(u.tags)); err != nil {
			return fmt.Errorf("seed %s: %w", u.email, err)
		}
	}
	const insertStore = `
INSERT INTO stores (owner_id, name, domain)
SELECT id, 'Sam''s Print Shop', 'sams-print-shop.pressroom.local' FROM users WHERE lower(email) = 'seller@example.com'
ON CONFLICT ((lower(domain))) DO NOTHING`
	if _, err := tx.ExecContext(ctx, insertStore); err != nil {
		return fmt.Errorf("seed store: %w", err)
	}
	const insertBalance = `
INSERT INTO account_balances (user_id, type, balance)
SELECT id, 'default', 0 FROM users WHERE lower(email) = 'seller@example.com'
ON CONFLICT DO NOTHING`
	if _, err := tx.ExecContext(ctx, insertBalance); err != nil {
		return fmt.Errorf("seed balance: %w", err)
	}
	// The veteran's wallets and SMS credits, for the top bar's Balance and Balance 2 and the sidebar block.
	const veteranWallets = `
WITH v AS (
    UPDATE users SET sms_credit = 320 WHERE lower(email) = 'veteran@example.com' RETURNING id
)
INSERT INTO account_balances (user_id, type, balance)
SELECT id, 'balance_2', 25.5 FROM v
ON CONFLICT DO NOTHING`
	if _, err := tx.ExecContext(ctx, veteranWallets); err != nil {
		return fmt.Errorf("seed veteran balances: %w", err)
	}
	var veteran int64
	if err := tx.GetContext(ctx, &veteran, `SELECT id FROM users WHERE lower(email) = 'veteran@example.com'`); err != nil {
		return fmt.Errorf("seed veteran: %w", err)
	}
	opening := ledger.Entry{SellerID: veteran, Currency: money.USD, Type: ledger.TypeOther, DAvailable: 128450,
		Description: "Opening balance", Key: "seed:veteran:opening"}
	if _, _, err := ledger.Post(ctx, tx, opening); err != nil {
		return fmt.Errorf("seed veteran ledger: %w", err)
	}
	const insertTeam = `
INSERT INTO team_members (seller_id, member_id, role, permissions)
SELECT s.id, m.id, 'staff', $2 FROM users s, users m
WHERE lower(s.email) = 'seller@example.com' AND lower(m.email) = $1
ON CONFLICT DO NOTHING`
	for email, perms := range map[string][]string{"team@example.com": teamPermissions, "support@example.com": supportPermissions} {
		if _, err := tx.ExecContext(ctx, insertTeam, email, pq.Array(perms)); err != nil {
			return fmt.Errorf("seed team: %w", err)
		}
	}
	if err := seedCatalog(ctx, tx); err != nil {
		return err
	}
	if err := seedNotifications(ctx, tx, d.Env); err != nil {
		return err
	}
	if err := seedEmail(ctx, tx); err != nil {
		return err
	}
	if err := seedDiscountCodes(ctx, tx); err != nil {
		return err
	}
	if err := seedBulkTemplate(ctx, tx, d.Store); err != nil {
		return err
	}
	if err := seedPersonalizedMug(ctx, tx, d.Store); err != nil {
		return err
	}
	if err := seedOrders(ctx, tx); err != nil {
		return err
	}
	if err := seedStorefront(ctx, tx); err != nil {
		return err
	}
	if err := seedEngagement(ctx, tx); err != nil {
		return err
	}
	// The demo seller is paid to a confirmed bank account, so Billing & Payouts works at once.
	var seller int64
	if err := tx.GetContext(ctx, &seller, `SELECT id FROM users WHERE lower(email) = 'seller@example.com'`); err != nil {
		return err
	}
	demoAccount := paymentaccounts.Input{Method: paymentaccounts.Bank, Fields: map[string]string{"holder_name": "Sam Seller",
		"bank_name": "First Demo Bank", "country": "US", "account_number": "000123456789", "swift_code": "DEMOUS33"}}
	if err := paymentaccounts.AddConfirmed(ctx, tx, d.Box, seller, demoAccount); err != nil {
		return fmt.Errorf("seed payment account: %w", err)
	}
	return tx.Commit()
}
