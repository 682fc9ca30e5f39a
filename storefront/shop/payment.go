package shop

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	texttemplate "text/template"

	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/commerce/storesite"
	"github.com/pressroom/pressroom/platform/mail"
)

// webhookPath is where the platform's Stripe account delivers its events, on any host (one endpoint
// for every store). A seller's own gateways deliver at gateways.WebhookPath (below webhookPath).
const webhookPath = "/webhooks/stripe"

// maxWebhook caps a webhook's body: a payment intent event is a few kilobytes.
const maxWebhook = 256 << 10

// browserConfirmer is a gateway whose intents the buyer's browser confirms (Stripe's Payment Element).
type browserConfirmer interface {
	PublishableKey() string
}

// webhookGateways are the gateways a delivery to path may come from: the platform's at webhookPath;
// at a seller's address, every gateway of that seller, retired ones included (their payments may
// still complete), tried in turn.
func (s *Server) webhookGateways(ctx context.Context, path string) ([]payments.Gateway, error) {
	if path == webhookPath {
		return []payments.Gateway{s.d.Gateways.Platform()}, nil
	}
	seller, err := strconv.ParseInt(strings.TrimPrefix(path, gateways.WebhookPrefix), 10, 64)
	if !strings.HasPrefix(path, gateways.WebhookPrefix) || err != nil || seller <= 0 {
		return nil, nil
	}
	own, err := s.d.Gateways.OfSeller(ctx, seller)
	if err != nil {
		return nil, err
	}
	out := make([]payments.Gateway, len(own))
	for i, g := range own {
		out[i] = g
	}
	return out, nil
}

// webhook verifies a gateway's event and applies it once. A bad signature answers 400 and stores
// nothing; an event of no interest, or about an intent that is not ours, answers 200 so the gateway
// stops sending it; a failure on our side answers 500 and the gateway delivers it again. At a
// seller's address the event is applied through the gateway whose secret verifies it and whose
// payment it is about (one Stripe account connected twice has two).
func (s *Server) webhook(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", cachePrivate)
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	candidates, err := s.webhookGateways(r.Context(), r.URL.Path)
	if err != nil {
		s.d.Log.Error("webhook gateways", "path", r.URL.Path, "err", err)
		http.Error(w, "not applied; deliver again", http.StatusInternalServerError)
		return
	}
	if len(candidates) == 0 {
		http.Error(w, "no payment gateway takes webhooks here", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhook))
	if err != nil {
		http.Error(w, "body too large or unreadable", http.StatusRequestEntityTooLarge)
		return
	}
	verified := false
	for _, gw := range candidates {
		ev, err := gw.ParseEvent(body, r.Header.Get("Stripe-Signature"))
		switch {
		case errors.Is(err, payments.ErrNoWebhooks), errors.Is(err, payments.ErrNoGateway):
			http.Error(w, "this storefront takes no webhooks", http.StatusNotFound)
			return
		case err != nil:
			continue
		}
		verified = true
		if ev.Type != "payment_intent.succeeded" && ev.Type != "payment_intent.payment_failed" {
			io.WriteString(w, "ignored")
			return
		}
		res, _, err := s.d.Checkout.ApplyEvent(r.Context(), gw, ev)
		if errors.Is(err, checkout.ErrNotFound) {
			continue
		} else if err != nil {
			s.d.Log.Error("webhook", "gateway", gw.Name(), "event", ev.ID, "err", err)
			http.Error(w, "not applied; deliver again", http.StatusInternalServerError)
			return
		}
		s.confirm(r.Context(), res)
		io.WriteString(w, "ok")
		return
	}
	if !verified {
		s.d.Log.Warn("webhook refused: no gateway's secret verifies it", "path", r.URL.Path)
		http.Error(w, "the signature does not verify", http.StatusBadRequest)
		return
	}
	s.d.Log.Warn("webhook for an unknown payment", "path", r.URL.Path)
	io.WriteString(w, "unknown payment")
}

// stripeData is what the review page needs to confirm an intent in the browser.
type stripeData struct {
	Key       string
	Secret    string
	ReturnURL string
	Nonce     string
}

// stripePayment prepares the checkout's intent and allows Stripe.js on the page. It answers nil
// with the test gateway (whose form posts to the server).
func (s *Server) stripePayment(w http.ResponseWriter, r *http.Request, c checkout.Checkout) (*stripeData, error) {
	gw, err := s.d.Checkout.GatewayFor(r.Context(), c.StoreID)
	if err != nil {
		return nil, err
	}
	bc, ok := gw.(browserConfirmer)
	if !ok {
		return nil, nil
	}
	in, err := s.d.Checkout.Prepare(r.Context(), c.StoreID, c.ID)
	if err != nil {
		return nil, err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	nonce := base64.RawStdEncoding.EncodeToString(b[:])
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: https://*.stripe.com; "+
		"script-src 'nonce-"+nonce+"' https://js.stripe.com https://*.js.stripe.com; "+
		"frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com; "+
		"connect-src 'self' https://api.stripe.com; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'self'")
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	rs := storeOf(r)
	return &stripeData{Key: bc.PublishableKey(), Secret: in.ClientSecret, Nonce: nonce,
		ReturnURL: scheme + "://" + r.Host + rs.Base + "/checkout/" + c.ID + "/return"}, nil
}

// mailTemplates are the order confirmation's text and HTML bodies.
type mailTemplates struct {
	text *texttemplate.Template
	html *template.Template
}

const confirmationText = `Thank you for your order {{.Number}} at {{.Store}}.

Total: {{.Total}}

Follow your order here: {{.Link}}
`

func parseMail() (*mailTemplates, error) {
	h, err := template.ParseFS(templateFS, "templates/mail-confirmation.html")
	if err != nil {
		return nil, fmt.Errorf("parse confirmation mail: %w", err)
	}
	return &mailTemplates{text: texttemplate.Must(texttemplate.New("text").Parse(confirmationText)), html: h}, nil
}

// confirmation is an order confirmation's content.
type confirmation struct {
	To, Store, Number, Total, Link string
}

const qConfirmation = `
SELECT o.email, o.number, o.total, o.currency, s.id AS store_id, s.name AS store_name, s.slug
FROM orders o JOIN stores s ON s.id = o.store_id WHERE o.id = $1`

// confirm sends the buyer the confirmation of an order the call just made (res.Created). It runs
// after the order committed; a mail that cannot be sent is logged and the order stands.
func (s *Server) confirm(ctx context.Context, res checkout.Result) {
	if !res.Created {
		return
	}
	if err := s.sendConfirmation(ctx, res.OrderID); err != nil {
		s.d.Log.Error("order confirmation mail", "order", res.OrderID, "err", err)
	}
}

func (s *Server) sendConfirmation(ctx context.Context, orderID int64) error {
	var row struct {
		Email     string `db:"email"`
		Number    string `db:"number"`
		Total     int64  `db:"total"`
		Currency  string `db:"currency"`
		StoreID   int64  `db:"store_id"`
		StoreName string `db:"store_name"`
		Slug      string `db:"slug"`
	}
	if err := s.d.DB.GetContext(ctx, &row, qConfirmation, orderID); err != nil {
		return err
	}
	c := confirmation{To: row.Email, Store: row.StoreName, Number: row.Number, Total: money.Money{Amount: row.Total, Currency: money.Currency(row.Currency)}.String(),
		Link: s.storeOrigin(row.Slug) + s.OrderPath(row.StoreID, orderID)}
	msg, err := s.mail.message(c)
	if err != nil {
		return err
	}
	return s.d.Mailer.Send(ctx, msg)
}

func (m *mailTemplates) message(c confirmation) (mail.Message, error) {
	var text, html bytes.Buffer
	if err := m.text.Execute(&text, c); err != nil {
		return mail.Message{}, err
	}
	if err := m.html.Execute(&html, c); err != nil {
		return mail.Message{}, err
	}
	subject := strings.NewReplacer("\r", " ", "\n", " ").Replace("Your order " + c.Number + " at " + c.Store)
	return mail.Message{To: c.To, Subject: subject, Body: text.String(), HTML: html.String()}, nil
}

// storeOrigin is a store's address in links sent outside a request (e-mails).
func (s *Server) storeOrigin(slug string) string {
	return storesite.Address{StoreDomain: s.cfg.StoreDomain, StorefrontAddr: s.cfg.Addr}.Origin(slug)
}
