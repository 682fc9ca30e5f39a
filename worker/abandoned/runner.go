package abandoned

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/recovery"
	"github.com/pressroom/pressroom/platform/mail"
	"github.com/pressroom/pressroom/platform/periodic"
)

// Mailer delivers one message; *mail.Mailer is the real one.
type Mailer interface {
	Send(ctx context.Context, msg mail.Message) error
}

// Runner marks abandoned checkouts and mails their recovery e-mails.
type Runner struct {
	cfg  Config
	db   *sqlx.DB
	mail Mailer
	log  *slog.Logger
}

// New validates cfg and builds the runner.
func New(cfg Config, db *sqlx.DB, m Mailer, log *slog.Logger) (*Runner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if db == nil || m == nil {
		return nil, errors.New("abandoned: db and mailer are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runner{cfg: cfg, db: db, mail: m, log: log}, nil
}

// Run makes a pass every interval until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	pass := func(ctx context.Context) (int, error) { return r.Pass(ctx, time.Now()) }
	return periodic.Run(ctx, r.cfg.Interval, r.log, pass, "abandoned checkouts", "abandoned checkouts handled")
}

// Pass marks the checkouts left since before now minus After abandoned, then mails the recovery
// e-mails due at now, and answers how many checkouts and e-mails it handled. Each e-mail is claimed
// before it is mailed, so passes in several workers at once send every step once.
func (r *Runner) Pass(ctx context.Context, now time.Time) (int, error) {
	n, err := recovery.MarkAbandoned(ctx, r.db, now, r.cfg.After, r.cfg.Batch)
	if err != nil {
		return n, err
	}
	due, err := recovery.ClaimDue(ctx, r.db, now, r.cfg.Batch)
	if err != nil {
		return n, err
	}
	// Outcomes are recorded even when ctx ends: a claimed e-mail that was sent stays sent.
	keep := context.WithoutCancel(ctx)
	var errs []error
	for _, m := range due {
		sendErr := r.send(ctx, m)
		if sendErr != nil {
			r.log.Warn("recovery e-mail failed", "checkout_id", m.CheckoutID, "step", m.Step, "err", sendErr)
		}
		if err := recovery.Settle(keep, r.db, m, time.Now(), sendErr); err != nil {
			errs = append(errs, err)
		}
	}
	return n + len(due), errors.Join(errs...)
}

func (r *Runner) send(ctx context.Context, m recovery.Mail) error {
	msg, err := r.message(m)
	if err != nil {
		return err
	}
	return r.mail.Send(ctx, msg)
}

// mailPage is the recovery e-mail: the seller's own text (sanitized when it was saved), then what
// the buyer left, the store's discount code and the link back. Everything but the seller's text is
// escaped by html/template.
var mailPage = template.Must(template.New("recovery").Parse(`<div>{{.Body}}</div>
<table>{{range .Lines}}<tr><td>{{.Name}} — {{.Color}}, {{.Size}} × {{.Quantity}}</td><td>{{.LineTotal}}</td></tr>
{{end}}<tr><td><strong>Total</strong></td><td><strong>{{.Total}}</strong></td></tr></table>
{{if .Coupon}}<p>Use the code <strong>{{.Coupon}}</strong> at checkout.</p>
{{end}}<p><a href="{{.URL}}">Return to your cart at {{.Store}}</a></p>
`))

// message is the e-mail of a claimed step, from the platform's address in the store's name.
func (r *Runner) message(m recovery.Mail) (mail.Message, error) {
	lines, err := m.Lines()
	if err != nil {
		return mail.Message{}, err
	}
	data := struct {
		Body               template.HTML
		Lines              []checkout.Line
		Total              string
		Coupon, URL, Store string
	}{
		Body: template.HTML(m.BodyHTML), Lines: lines, Total: m.TotalMoney().String(), Coupon: m.Coupon, Store: m.StoreName,
		URL: r.cfg.Links.Store(m.StoreSlug) + recovery.Path(r.cfg.Links.SigningKey, m.StoreID, m.CheckoutID),
	}
	var b bytes.Buffer
	if err := mailPage.Execute(&b, data); err != nil {
		return mail.Message{}, fmt.Errorf("recovery e-mail: %w", err)
	}
	html := b.String()
	return mail.Message{To: m.Email, Subject: m.Subject, Body: mail.PlainText(html), HTML: html, FromName: m.StoreName}, nil
}
