package invoices

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// ErrNotFound: no invoice for that order (not the caller's, or not paid).
var ErrNotFound = errors.New("invoice not found")

// Invoice is an issued invoice's row.
type Invoice struct {
	ID       int64     `db:"id" json:"id"`
	SellerID int64     `db:"seller_id" json:"-"`
	OrderID  int64     `db:"order_id" json:"order_id"`
	Number   string    `db:"number" json:"number"`
	IssuedAt time.Time `db:"issued_at" json:"issued_at"`
	// PDFKey is the blob key of the printed PDF; empty until the renderer has printed it.
	PDFKey string `db:"pdf_key" json:"-"`
}

// Number formats the seq-th invoice number of a seller.
func Number(seq int64) string { return fmt.Sprintf("INV-%06d", seq) }

const (
	qExisting = `SELECT id, seller_id, order_id, number, issued_at, pdf_key FROM invoices WHERE order_id = $1`
	qNextSeq  = `
INSERT INTO invoice_numbers (seller_id, last) VALUES ($1, 1)
ON CONFLICT (seller_id) DO UPDATE SET last = invoice_numbers.last + 1
RETURNING last`
	qInsert = `
INSERT INTO invoices (seller_id, order_id, seq, number) VALUES ($1, $2, $3, $4)
RETURNING id, seller_id, order_id, number, issued_at, pdf_key`
)

// Issue gives the paid order orderID its invoice inside tx and queues its PDF. The order's row is
// locked first, so concurrent calls for one order make one invoice; the seller's counter row is
// locked by its upsert, so numbers follow each other.
func Issue(ctx context.Context, tx *sqlx.Tx, orderID int64) (Invoice, error) {
	var sellerID int64
	if err := tx.GetContext(ctx, &sellerID, `SELECT seller_id FROM orders WHERE id = $1 FOR UPDATE`, orderID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Invoice{}, fmt.Errorf("issue invoice: order %d: %w", orderID, ErrNotFound)
		}
		return Invoice{}, fmt.Errorf("issue invoice: lock order: %w", err)
	}
	var inv Invoice
	err := tx.GetContext(ctx, &inv, qExisting, orderID)
	if err == nil {
		return inv, nil
	} else if !errors.Is(err, sql.ErrNoRows) {
		return Invoice{}, fmt.Errorf("issue invoice: %w", err)
	}
	var seq int64
	if err := tx.GetContext(ctx, &seq, qNextSeq, sellerID); err != nil {
		return Invoice{}, fmt.Errorf("issue invoice: next number: %w", err)
	}
	if err := tx.GetContext(ctx, &inv, qInsert, sellerID, orderID, seq, Number(seq)); err != nil {
		return Invoice{}, fmt.Errorf("issue invoice: %w", err)
	}
	if err := QueuePDF(ctx, tx, inv.ID, 0); err != nil {
		return Invoice{}, err
	}
	return inv, nil
}

// PDFRound is how long one printing of an invoice's PDF is waited for: a PDF still missing a round
// after its invoice was issued may be queued again (RequeuePDF).
const PDFRound = 5 * time.Minute

// QueuePDF queues round round of the printing of invoice id's PDF, once: a round queued before (the
// invoice's pdf_round) queues nothing, so asking again within a round writes nothing.
func QueuePDF(ctx context.Context, tx sqlx.ExtContext, id, round int64) error {
	res, err := tx.ExecContext(ctx, `UPDATE invoices SET pdf_round = $2 WHERE id = $1 AND pdf_round < $2`, id, round)
	if err != nil {
		return fmt.Errorf("invoice %d: claim PDF round %d: %w", id, round, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	job, err := tasks.NewInvoicePDFJob(id, round, queue.Default)
	if err != nil {
		return err
	}
	_, err = outbox.Add(ctx, tx, job)
	return err
}

// RequeuePDF queues the printing of doc's PDF when it is still missing, in the round its age is in: the
// first for an invoice that never had one queued (numbered by the migration), a later one when the
// earlier round's task gave up.
func RequeuePDF(ctx context.Context, db *sqlx.DB, doc Document) error {
	if doc.PDFKey != "" {
		return nil
	}
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := QueuePDF(ctx, tx, doc.ID, max(int64(time.Since(doc.IssuedAt)/PDFRound), 0)); err != nil {
		return err
	}
	return tx.Commit()
}

// SetPDF records where invoice id's PDF is stored.
func SetPDF(ctx context.Context, db sqlx.ExecerContext, id int64, key string) error {
	_, err := db.ExecContext(ctx, `UPDATE invoices SET pdf_key = $2 WHERE id = $1`, id, key)
	return err
}

// Party is the seller or the buyer as the invoice names them.
type Party struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	// Address is the buyer's shipping address as the checkout took it (name, line1, line2, city, state,
	// postal_code, country, phone); empty for the seller.
	Address json.RawMessage `json:"address,omitempty"`
}

// Line is an item of the invoice.
type Line struct {
	Description string      `json:"description"`
	Color       string      `json:"color"`
	Size        string      `json:"size"`
	Quantity    int64       `json:"quantity"`
	UnitPrice   money.Money `json:"unit_price"`
	Amount      money.Money `json:"amount"`
}

// Document is everything an invoice shows, in the order's currency.
type Document struct {
	Invoice
	OrderNumber string    `json:"order_number"`
	PaidAt      time.Time `json:"paid_at"`
	// TimeZone is the seller's IANA time zone, in which the invoice's dates are written.
	TimeZone string      `json:"time_zone"`
	Seller   Party       `json:"seller"`
	Buyer    Party       `json:"buyer"`
	Lines    []Line      `json:"lines"`
	Subtotal money.Money `json:"subtotal"`
	Shipping money.Money `json:"shipping"`
	Discount money.Money `json:"discount"`
	Tip      money.Money `json:"tip"`
	Total    money.Money `json:"total"`
}

const qDocument = `
SELECT i.id, i.seller_id, i.order_id, i.number, i.issued_at, i.pdf_key, o.number AS order_number,
	o.created_at AS paid_at, u.timezone, coalesce(nullif(s.name, ''), u.email) AS seller_name, u.email AS seller_email,
	o.customer_name, o.email, o.shipping_address, o.currency, o.subtotal, o.shipping, o.discount, o.tip, o.total
FROM invoices i
JOIN orders o ON o.id = i.order_id
JOIN users u ON u.id = i.seller_id
LEFT JOIN stores s ON s.id = o.store_id
WHERE `

type documentRow struct {
	Invoice
	OrderNumber  string          `db:"order_number"`
	PaidAt       time.Time       `db:"paid_at"`
	TimeZone     string          `db:"timezone"`
	SellerName   string          `db:"seller_name"`
	SellerEmail  string          `db:"seller_email"`
	CustomerName string          `db:"customer_name"`
	Email        string          `db:"email"`
	Address      json.RawMessage `db:"shipping_address"`
	Currency     string          `db:"currency"`
	Subtotal     int64           `db:"subtotal"`
	Shipping     int64           `db:"shipping"`
	Discount     int64           `db:"discount"`
	Tip          int64           `db:"tip"`
	Total        int64           `db:"total"`
}

// OfOrder reads the invoice of seller sellerID's order orderID; ErrNotFound when the order is another
// seller's or has no invoice.
func OfOrder(ctx context.Context, db sqlx.QueryerContext, sellerID, orderID int64) (Document, error) {
	return document(ctx, db, "i.order_id = $1 AND i.seller_id = $2", orderID, sellerID)
}

// Get reads invoice id (for its PDF).
func Get(ctx context.Context, db sqlx.QueryerContext, id int64) (Document, error) {
	return document(ctx, db, "i.id = $1", id)
}

func document(ctx context.Context, db sqlx.QueryerContext, where string, args ...any) (Document, error) {
	var r documentRow
	if err := sqlx.GetContext(ctx, db, &r, qDocument+where, args...); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Document{}, ErrNotFound
		}
		return Document{}, fmt.Errorf("read invoice: %w", err)
	}
	cur, err := money.ParseCurrency(r.Currency)
	if err != nil {
		return Document{}, fmt.Errorf("invoice %d: %w", r.ID, err)
	}
	m := func(amount int64) money.Money { return money.Money{Amount: amount, Currency: cur} }
	d := Document{Invoice: r.Invoice, OrderNumber: r.OrderNumber, PaidAt: r.PaidAt, TimeZone: r.TimeZone,
		Seller:   Party{Name: r.SellerName, Email: r.SellerEmail},
		Buyer:    Party{Name: r.CustomerName, Email: r.Email, Address: r.Address},
		Subtotal: m(r.Subtotal), Shipping: m(r.Shipping), Discount: m(r.Discount), Tip: m(r.Tip), Total: m(r.Total)}
	const qLines = `SELECT product_name, color, size, quantity, unit_price FROM order_items WHERE order_id = $1 ORDER BY id`
	rows, err := db.QueryxContext(ctx, qLines, r.OrderID)
	if err != nil {
		return Document{}, fmt.Errorf("read invoice lines: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var l Line
		var unit int64
		if err := rows.Scan(&l.Description, &l.Color, &l.Size, &l.Quantity, &unit); err != nil {
			return Document{}, fmt.Errorf("read invoice lines: %w", err)
		}
		l.UnitPrice, l.Amount = m(unit), m(unit*l.Quantity)
		d.Lines = append(d.Lines, l)
	}
	return d, rows.Err()
}
