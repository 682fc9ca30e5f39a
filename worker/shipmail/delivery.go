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
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/reviews"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/storelink"
	"github.com/pressroom/pressroom/worker/tasks"
)

// DeliveryHandler runs orders:delivery-mail tasks.
type DeliveryHandler struct {
	db    *sqlx.DB
	mail  Mailer
	links storelink.Config
}

// NewDeliveryHandler builds the handler; links is where the review links point and their key.
func NewDeliveryHandler(db *sqlx.DB, m Mailer, links storelink.Config) (*DeliveryHandler, error) {
	if db == nil || m == nil {
		return nil, errors.New("shipmail: db and mailer are required")
	}
	if err := links.Validate(); err != nil {
		return nil, err
	}
	return &DeliveryHandler{db: db, mail: m, links: links}, nil
}

// arrived is what the delivery mail says.
type arrived struct {
	Number, Store string
	Items         []arrivedItem
	// Reviews is set when the store takes reviews: each item then has its link.
	Reviews bool
}

type arrivedItem struct {
	Name, Review string
}

const qArrived = `
SELECT o.email, o.number, o.store_id, coalesce(s.name, '') AS store, coalesce(s.slug, '') AS slug,
	coalesce(s.review_setting, 'disable') AS review_setting, i.id AS item_id,
	i.product_name || CASE WHEN i.color <> '' OR i.size <> '' THEN ' (' || concat_ws(', ', nullif(i.color, ''), nullif(i.size, '')) || ')' ELSE '' END
		|| CASE WHEN i.quantity > 1 THEN ' × ' || i.quantity ELSE '' END AS item
FROM orders o LEFT JOIN stores s ON s.id = o.store_id
JOIN order_items i ON i.order_id = o.id JOIN shipments sh ON sh.order_item_id = i.id AND sh.delivered_at IS NOT NULL
WHERE o.id = $1 AND i.id = ANY($2) ORDER BY i.id`

var deliveryText = texttemplate.Must(texttemplate.New("text").Parse(`Your order {{.Number}}{{if .Store}} from {{.Store}}{{end}} has arrived.
{{range .Items}}
- {{.Name}}{{if .Review}}
  Tell other buyers what you think: {{.Review}}{{end}}{{end}}
{{if .Reviews}}
Your review shows on the shop once the seller has read it.
{{end}}`))

var deliveryHTML = template.Must(template.New("html").Parse(`<p>Your order <strong>{{.Number}}</strong>{{if .Store}} from {{.Store}}{{end}} has arrived.</p>
<ul>{{range .Items}}<li>{{.Name}}{{if .Review}} — <a href="{{.Review}}">Write a review</a>{{end}}</li>{{end}}</ul>
{{if .Reviews}}<p>Your review shows on the shop once the seller has read it.</p>{{end}}`))

// ProcessTask mails the buyer of the payload's order that its items arrived, each with its signed
// review link when the store takes reviews. An order or items that are gone are dropped without
// retries.
func (h *DeliveryHandler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := queue.ParsePayload(t, func(p tasks.DeliveryMailPayload) bool { return p.OrderID > 0 && len(p.ItemIDs) > 0 })
	if err != nil {
		return err
	}
	var rows []struct {
		Email         string `db:"email"`
		Number        string `db:"number"`
		StoreID       *int64 `db:"store_id"`
		Store         string `db:"store"`
		Slug          string `db:"slug"`
		ReviewSetting string `db:"review_setting"`
		ItemID        int64  `db:"item_id"`
		Item          string `db:"item"`
	}
	if err := h.db.SelectContext(ctx, &rows, qArrived, p.OrderID, pq.Array(p.ItemIDs)); err != nil {
		return fmt.Errorf("delivery mail of order %d: %w", p.OrderID, err)
	}
	if len(rows) == 0 || rows[0].Email == "" {
		return fmt.Errorf("delivery mail of order %d: %w: %w", p.OrderID, sql.ErrNoRows, asynq.SkipRetry)
	}
	first := rows[0]
	a := arrived{Number: first.Number, Store: first.Store,
		Reviews: first.StoreID != nil && first.Slug != "" && first.ReviewSetting != reviews.SettingDisable}
	for _, r := range rows {
		it := arrivedItem{Name: r.Item}
		if a.Reviews {
			it.Review = h.links.Store(r.Slug) + reviews.Path(h.links.SigningKey, *r.StoreID, r.ItemID)
		}
		a.Items = append(a.Items, it)
	}
	var tb, hb bytes.Buffer
	if err := deliveryText.Execute(&tb, a); err != nil {
		return err
	}
	if err := deliveryHTML.Execute(&hb, a); err != nil {
		return err
	}
	oneLine := strings.NewReplacer("\r", " ", "\n", " ")
	subject := "Your order " + a.Number + " has arrived"
	if a.Store != "" {
		subject = "Your order " + a.Number + " from " + a.Store + " has arrived"
	}
	return h.mail.Send(ctx, mail.Message{To: first.Email, Subject: oneLine.Replace(subject), Body: tb.String(), HTML: hb.String(),
		FromName: oneLine.Replace(a.Store)})
}
