package shipmail

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html/template"
	"strings"
	texttemplate "text/template"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Mailer delivers one message; *mail.Mailer is the real one.
type Mailer interface {
	Send(ctx context.Context, msg mail.Message) error
}

// Handler runs orders:shipping-mail tasks.
type Handler struct {
	db   *sqlx.DB
	mail Mailer
}

// NewHandler builds the handler.
func NewHandler(db *sqlx.DB, m Mailer) (*Handler, error) {
	if db == nil || m == nil {
		return nil, errors.New("shipmail: db and mailer are required")
	}
	return &Handler{db: db, mail: m}, nil
}

// parcel is what the mail says.
type parcel struct {
	Number, Store, Carrier, Tracking, URL string
	Items                                 []string
}

const qParcel = `
SELECT o.email, o.number, coalesce(s.name, '') AS store, sh.carrier, sh.tracking_url,
	i.product_name || CASE WHEN i.quantity > 1 THEN ' × ' || i.quantity ELSE '' END AS item
FROM orders o LEFT JOIN stores s ON s.id = o.store_id
JOIN order_items i ON i.order_id = o.id JOIN shipments sh ON sh.order_item_id = i.id
WHERE o.id = $1 AND sh.tracking = $2 ORDER BY i.id`

var text = texttemplate.Must(texttemplate.New("text").Parse(`Good news: your order {{.Number}}{{if .Store}} from {{.Store}}{{end}} has shipped.
{{range .Items}}
- {{.}}{{end}}

Carrier: {{.Carrier}}
Tracking number: {{.Tracking}}
{{if .URL}}Follow your parcel: {{.URL}}
{{end}}`))

var html = template.Must(template.New("html").Parse(`<p>Good news: your order <strong>{{.Number}}</strong>{{if .Store}} from {{.Store}}{{end}} has shipped.</p>
<ul>{{range .Items}}<li>{{.}}</li>{{end}}</ul>
<p>Carrier: {{.Carrier}}<br>Tracking number: {{.Tracking}}</p>
{{if .URL}}<p><a href="{{.URL}}">Follow your parcel</a></p>{{end}}`))

// ProcessTask mails the buyer of the payload's order about the parcel with its tracking number. An
// order or parcel that is gone (the order deleted meanwhile) is dropped without retries.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := queue.ParsePayload(t, func(p tasks.ShippingMailPayload) bool { return p.OrderID > 0 && p.Tracking != "" })
	if err != nil {
		return err
	}
	var rows []struct {
		Email   string `db:"email"`
		Number  string `db:"number"`
		Store   string `db:"store"`
		Carrier string `db:"carrier"`
		URL     string `db:"tracking_url"`
		Item    string `db:"item"`
	}
	if err := h.db.SelectContext(ctx, &rows, qParcel, p.OrderID, p.Tracking); err != nil {
		return fmt.Errorf("shipping mail of order %d: %w", p.OrderID, err)
	}
	if len(rows) == 0 || rows[0].Email == "" {
		return fmt.Errorf("shipping mail of order %d: %w: %w", p.OrderID, sql.ErrNoRows, asynq.SkipRetry)
	}
	c := parcel{Number: rows[0].Number, Store: rows[0].Store, Carrier: rows[0].Carrier, Tracking: p.Tracking, URL: safeURL(rows[0].URL)}
	for _, r := range rows {
		c.Items = append(c.Items, r.Item)
	}
	var tb, hb bytes.Buffer
	if err := text.Execute(&tb, c); err != nil {
		return err
	}
	if err := html.Execute(&hb, c); err != nil {
		return err
	}
	oneLine := strings.NewReplacer("\r", " ", "\n", " ")
	subject := "Your order " + c.Number + " has shipped"
	if c.Store != "" {
		subject = "Your order " + c.Number + " from " + c.Store + " has shipped"
	}
	return h.mail.Send(ctx, mail.Message{To: rows[0].Email, Subject: oneLine.Replace(subject), Body: tb.String(), HTML: hb.String(),
		FromName: oneLine.Replace(c.Store)})
}

// safeURL keeps only http(s) links.
func safeURL(u string) string {
	if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		return u
	}
	return ""
}
