package app

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/paymentgateways"
	"github.com/pressroom/pressroom/bff/seed"
	"github.com/pressroom/pressroom/commerce/checkout"
	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/platform/seal"
	"github.com/pressroom/pressroom/platform/testinfra"
)

// gatewayReply is a payment gateway as the screens read it.
type gatewayReply struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	AccountID        string `json:"account_id"`
	TestMode         bool   `json:"test_mode"`
	PublishableKey   string `json:"publishable_key"`
	SecretKey        string `json:"secret_key"`
	WebhookSecret    string `json:"webhook_secret"`
	WebhookURL       string `json:"webhook_url"`
	PendingCheckouts int    `json:"pending_checkouts"`
	Stores           []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"stores"`
}

// A seller's own Stripe keys, as stripe-mock takes them (sk_test_ and one more part).
const (
	sellerSecret      = "sk_test_sellerownkey4242"
	sellerPublishable = "pk_test_sellerownkey4242"
	sellerHookSecret  = "whsec_sellerownsecret9876"
)

// sellerShop is the storefront's checkout over the app's sellers' gateways: a store that uses one
// pays into it (through stripe-mock); the others through the test gateway.
func (s *stack) sellerShop() (*checkout.Service, *gateways.Resolver) {
	s.t.Helper()
	box, err := seal.New(seal.DevPaymentKey)
	if err != nil {
		s.t.Fatal(err)
	}
	platform, _ := s.app.gateways()
	r, err := gateways.New(gateways.Deps{DB: s.app.DB, Box: box, Platform: platform[0], APIBase: s.cfg.Stripe.APIBase})
	if err != nil {
		s.t.Fatal(err)
	}
	shop, err := checkout.New(checkout.Deps{DB: s.app.DB, Gateways: r})
	if err != nil {
		s.t.Fatal(err)
	}
	return shop, r
}

// TestPaymentGateways: a seller with custom payment connects their Stripe account (checked against
// stripe-mock; a key Stripe refuses and every bad field answer 422 and store nothing), the keys are
// sealed and shown masked, the demo store pays into it, its webhook is verified with the seller's
// secret, the order books what the seller owes, the refund goes back through the seller's account,
// and deleting the gateway gives the store back to the platform while the gateway's payments still
// resolve.
func TestPaymentGateways(t *testing.T) {
	s := newStackWith(t, map[string]string{"PRESSROOM_STRIPE_API_BASE": testinfra.StripeURL(t)})
	ctx := context.Background()
	var demoStore int64
	if err := s.app.DB.Get(&demoStore, `SELECT id FROM stores WHERE slug = $1`, seed.DemoStoreSlug); err != nil {
		t.Fatal(err)
	}
	plain := s.login("seller", "seller@example.com")
	if r := s.do("GET", "/api/seller/payment-gateways", plain, nil); r.status != 403 {
		t.Fatalf("a seller without custom payment: %d %s", r.status, r.raw)
	}
	s.app.DB.MustExec(`UPDATE users SET custom_payment = true WHERE email = 'seller@example.com'`)
	seller := s.login("seller", "seller@example.com")
	var other int64
	s.app.DB.Get(&other, `INSERT INTO stores (owner_id, name, slug, currency) VALUES ($1, 'Not yours', 'not-yours', 'USD') RETURNING id`,
		s.userID("designer@example.com"))

	r := s.do("GET", "/api/seller/payment-gateways/setup", seller, nil)
	if !strings.Contains(string(r.raw), fmt.Sprintf(`"webhook_url":"http://127.0.0.1:8082/webhooks/stripe/seller/%d"`, s.userID("seller@example.com"))) ||
		!strings.Contains(string(r.raw), "payment_intent.payment_failed") {
		t.Errorf("the setup names the webhook endpoint before anything is saved: %s", r.raw)
	}
	good := func() map[string]any {
		return map[string]any{"name": "My Stripe", "secret_key": sellerSecret, "publishable_key": sellerPublishable,
			"webhook_secret": sellerHookSecret, "store_ids": []int64{demoStore}}
	}
	bad := []struct {
		name, field string
		edit        func(map[string]any)
	}{
		{"no name", "name", func(b map[string]any) { b["name"] = "  " }},
		{"a long name", "name", func(b map[string]any) { b["name"] = strings.Repeat("n", 101) }},
		{"a publishable key as the secret", "secret_key", func(b map[string]any) { b["secret_key"] = sellerPublishable }},
		{"no secret key", "secret_key", func(b map[string]any) { delete(b, "secret_key") }},
		{"a secret key as the publishable", "publishable_key", func(b map[string]any) { b["publishable_key"] = sellerSecret }},
		{"keys of two modes", "publishable_key", func(b map[string]any) { b["publishable_key"] = "pk_live_sellerownkey4242" }},
		{"no webhook secret", "webhook_secret", func(b map[string]any) { b["webhook_secret"] = "" }},
		{"a webhook secret of another kind", "webhook_secret", func(b map[string]any) { b["webhook_secret"] = "sellerownsecret" }},
		{"another seller's store", "store_ids", func(b map[string]any) { b["store_ids"] = []int64{demoStore, other} }},
		{"a key Stripe refuses", "secret_key", func(b map[string]any) { b["secret_key"] = "sk_test_not_a_key_of_anyone" }},
	}
	for _, b := range bad {
		body := good()
		b.edit(body)
		r := s.do("POST", "/api/seller/payment-gateways", seller, body)
		if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != b.field {
			t.Errorf("%s: %d %s", b.name, r.status, r.raw)
		}
	}
	if r := s.do("POST", "/api/seller/payment-gateways", seller, map[string]any{"name": "x", "secret_key": "sk_test_not_a_key_of_anyone",
		"publishable_key": sellerPublishable, "webhook_secret": sellerHookSecret}); !strings.HasPrefix(r.body.Message, "Stripe refused the secret key: ") {
		t.Errorf("Stripe's refusal is said as such: %q", r.body.Message)
	}
	var rows int
	s.app.DB.Get(&rows, `SELECT count(*) FROM payment_gateways`)
	if rows != 0 {
		t.Fatalf("%d gateways stored by refused requests", rows)
	}

	r = s.do("POST", "/api/seller/payment-gateways", seller, good())
	if r.status != 201 || r.body.Message != paymentgateways.MsgCreated {
		t.Fatalf("connect: %d %s", r.status, r.raw)
	}
	var g gatewayReply
	decode(t, r, &g)
	if g.SecretKey != "sk_test_••••••••4242" || g.WebhookSecret != "whsec_••••••••9876" || g.PublishableKey != sellerPublishable ||
		!strings.HasPrefix(g.AccountID, "acct_") || !g.TestMode || len(g.Stores) != 1 || g.Stores[0].ID != demoStore ||
		g.WebhookURL != fmt.Sprintf("http://127.0.0.1:8082/webhooks/stripe/seller/%d", s.userID("seller@example.com")) {
		t.Errorf("connected: %+v", g)
	}
	if strings.Contains(string(r.raw), sellerSecret) || strings.Contains(string(r.raw), sellerHookSecret) {
		t.Errorf("the answer holds a secret: %s", r.raw)
	}
	var sealedKey, sealedHook []byte
	s.app.DB.QueryRow(`SELECT secret_key_sealed, webhook_secret_sealed FROM payment_gateways WHERE id = $1`, g.ID).Scan(&sealedKey, &sealedHook)
	if bytes.Contains(sealedKey, []byte(sellerSecret)) || bytes.Contains(sealedHook, []byte(sellerHookSecret)) || len(sealedKey) == 0 {
		t.Errorf("the secrets are not sealed at rest")
	}

	// A team member with get_payments sees it and changes nothing; one without sees nothing.
	s.app.DB.MustExec(`UPDATE team_members SET permissions = '{get_payments}' WHERE member_id = (SELECT id FROM users WHERE email = 'team@example.com')`)
	team := s.switchInto("team@example.com")
	if r := s.do("GET", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), team, nil); r.status != 200 {
		t.Errorf("a team member with get_payments reads: %d %s", r.status, r.raw)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), team, nil); r.status != 403 {
		t.Errorf("a team member without update_payments deletes: %d", r.status)
	}
	if r := s.do("GET", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), s.login("seller", "veteran@example.com"), nil); r.status != 403 {
		t.Errorf("another seller without custom payment: %d", r.status)
	}

	// Renaming keeps the keys when the form sends them back masked.
	r = s.do("PUT", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), seller, map[string]any{"name": "Shop Stripe",
		"secret_key": g.SecretKey, "publishable_key": sellerPublishable, "webhook_secret": "", "store_ids": []int64{demoStore}})
	if r.status != 200 {
		t.Fatalf("rename: %d %s", r.status, r.raw)
	}
	own, err := s.sellerGateway(g.ID)
	if err != nil || own.Label != "Shop Stripe" || own.PublishableKey() != sellerPublishable {
		t.Fatalf("the renamed gateway opens: %+v %v", own, err)
	}

	// A buyer of the demo store pays into the seller's account.
	shop, resolver := s.sellerShop()
	storeID, checkoutID := s.checkoutIn(shop, "gwen@example.com", "Gwen Gateway", 1, "")
	intent, err := shop.Prepare(ctx, storeID, checkoutID)
	if err != nil {
		t.Fatal(err)
	}
	var payment struct {
		Gateway   string `db:"gateway"`
		GatewayID *int64 `db:"payment_gateway_id"`
		Amount    int64  `db:"amount"`
	}
	s.app.DB.Get(&payment, `SELECT gateway, payment_gateway_id, amount FROM payments WHERE checkout_id = $1`, checkoutID)
	if payment.Gateway != gateways.Name(g.ID) || payment.GatewayID == nil || *payment.GatewayID != g.ID {
		t.Fatalf("the payment went through %+v", payment)
	}
	gw, err := resolver.ForStore(ctx, storeID)
	if err != nil {
		t.Fatal(err)
	}
	event := func(secret string) (*checkout.Result, error) {
		payload := []byte(fmt.Sprintf(`{"id":"evt_own_1","object":"event","api_version":%q,"type":"payment_intent.succeeded","data":{"object":`+
			`{"id":%q,"object":"payment_intent","amount":%d,"currency":"usd","status":"succeeded"}}}`, stripe.APIVersion, intent.ID, payment.Amount))
		sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
		ev, err := gw.ParseEvent(payload, sig.Header)
		if err != nil {
			return nil, err
		}
		res, _, err := shop.ApplyEvent(ctx, gw, ev)
		return &res, err
	}
	if _, err := event("whsec_someone_else"); err == nil {
		t.Fatal("an event signed with another secret was accepted")
	}
	res, err := event(sellerHookSecret)
	if err != nil || res.OrderID == 0 {
		t.Fatalf("the seller's event: %+v %v", res, err)
	}
	fulfil := s.transactions(seller, "type=fulfill")
	if fulfil.Total != 1 || fulfil.Data[0].OrderID == nil || *fulfil.Data[0].OrderID != res.OrderID || fulfil.Data[0].Amount >= 0 ||
		!strings.Contains(fulfil.Data[0].Description, "into your own payment account") {
		t.Fatalf("the order paid into the seller's account books what they owe: %+v", fulfil)
	}
	if sales := s.transactions(seller, "type=sale"); sales.Total != 0 {
		t.Errorf("an own-account order also booked earnings: %+v", sales)
	}

	// The refund goes back through the seller's account, and the platform returns its costs.
	r = s.act(seller, res.OrderID, "refund", map[string]any{"amount": payment.Amount, "reason": "changed mind"}, "Idempotency-Key", "own-1")
	if r.status != 200 {
		t.Fatalf("refund: %d %s", r.status, r.raw)
	}
	var refund struct {
		Status string `db:"status"`
		ID     string `db:"gateway_refund_id"`
	}
	s.app.DB.Get(&refund, `SELECT status, gateway_refund_id FROM refunds`)
	if refund.Status != "succeeded" || !strings.HasPrefix(refund.ID, "re_") {
		t.Errorf("refund %+v: not sent to Stripe", refund)
	}
	if back := s.transactions(seller, "type=refund"); back.Total == 0 || back.Data[len(back.Data)-1].Amount != -fulfil.Data[0].Amount {
		t.Errorf("a full refund gives back what the seller owed (%d): %+v", -fulfil.Data[0].Amount, back)
	}

	// Deleting the gateway gives the store back to the platform; its payment still resolves.
	r = s.do("DELETE", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), seller, nil)
	if r.status != 200 || r.body.Message != paymentgateways.MsgRetired {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), seller, nil); r.status != 404 {
		t.Errorf("a deleted gateway: %d", r.status)
	}
	var storeGateway *int64
	s.app.DB.Get(&storeGateway, `SELECT payment_gateway_id FROM stores WHERE id = $1`, demoStore)
	if storeGateway != nil {
		t.Errorf("the store still pays through the deleted gateway")
	}
	if now, _ := resolver.ForStore(ctx, storeID); now.Name() != "test" {
		t.Errorf("the store pays through %s", now.Name())
	}
	if old, err := resolver.ByName(ctx, gateways.Name(g.ID)); err != nil || old.Name() != gateways.Name(g.ID) {
		t.Errorf("the retired gateway's payments no longer resolve: %v", err)
	}

	// A gateway no payment went through is removed with its keys.
	r = s.do("POST", "/api/seller/payment-gateways", seller, map[string]any{"name": "Spare", "secret_key": sellerSecret,
		"publishable_key": sellerPublishable, "webhook_secret": sellerHookSecret})
	decode(t, r, &g)
	if r := s.do("DELETE", fmt.Sprintf("/api/seller/payment-gateways/%d", g.ID), seller, nil); r.status != 200 || r.body.Message != paymentgateways.MsgRemoved {
		t.Errorf("delete an unused gateway: %d %s", r.status, r.raw)
	}
	s.app.DB.Get(&rows, `SELECT count(*) FROM payment_gateways WHERE id = $1`, g.ID)
	if rows != 0 {
		t.Errorf("the unused gateway's row stays")
	}
}

// sellerGateway opens the seller's gateway id as the storefront does.
func (s *stack) sellerGateway(id int64) (*gateways.Gateway, error) {
	_, r := s.sellerShop()
	return r.ByID(context.Background(), id)
}

// TestPaymentGatewayRoutesDeclareTheirNeeds pins the gateway routes: reading needs get_payments,
// changing update_payments, both only in accounts with custom payment.
func TestPaymentGatewayRoutesDeclareTheirNeeds(t *testing.T) {
	s := newStack(t)
	read := access.Need{Permission: access.GetPayments, CustomPayment: true}
	write := access.Need{Permission: access.UpdatePayments, CustomPayment: true}
	for route, need := range map[string]access.Need{
		"GET /api/seller/payment-gateways":        read,
		"GET /api/seller/payment-gateways/stores": read,
		"GET /api/seller/payment-gateways/:id":    read,
		"POST /api/seller/payment-gateways":       write,
		"PUT /api/seller/payment-gateways/:id":    write,
		"DELETE /api/seller/payment-gateways/:id": write,
	} {
		method, path, _ := strings.Cut(route, " ")
		if got, ok := s.app.Auth.Declared(method, path); !ok || got.String() != need.String() {
			t.Errorf("%s declares %q (%v), want %q", route, got, ok, need)
		}
	}
}
