package shop

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pressroom/pressroom/commerce/gateways"
	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/testinfra"
)

const sellerHookSecret = "whsec_seller_own_secret"

// sellerGatewayShop is the fixture store paying through its seller's own Stripe account
// (stripe-mock) while the platform's gateway is the test gateway; it answers the gateway's id.
func sellerGatewayShop(t *testing.T) (fixture, int64) {
	t.Helper()
	platform, err := payments.NewTest("test")
	if err != nil {
		t.Fatal(err)
	}
	f := setupGateways(t, platform, testinfra.StripeURL(t), DefaultConfig())
	id := f.connect(t)
	f.db.MustExec(`UPDATE stores SET payment_gateway_id = $1 WHERE id = $2`, id, f.storeID)
	return f, id
}

// connect gives the store's seller a gateway of their Stripe account (stripe-mock), as the seller's
// screen stores it, and answers its id.
func (f fixture) connect(t *testing.T) int64 {
	t.Helper()
	var id int64
	if err := f.db.Get(&id, `SELECT nextval('payment_gateways_id_seq')`); err != nil {
		t.Fatal(err)
	}
	sealed, err := gateways.Seal(f.box, id, gateways.Keys{SecretKey: "sk_test_sellerown", WebhookSecret: sellerHookSecret})
	if err != nil {
		t.Fatal(err)
	}
	f.db.MustExec(`INSERT INTO payment_gateways (id, seller_id, name, account_id, test_mode, publishable_key, secret_key_sealed,
		secret_key_hint, webhook_secret_sealed, webhook_secret_hint)
		SELECT $1, owner_id, 'Own', 'acct_own', true, 'pk_test_sellerown', $2, $3, $4, $5 FROM stores WHERE id = $6`,
		id, sealed.SecretKey, sealed.SecretHint, sealed.WebhookSecret, sealed.WebhookHint, f.storeID)
	return id
}

// owner is the fixture store's seller.
func (f fixture) owner(t *testing.T) int64 {
	t.Helper()
	var id int64
	if err := f.db.Get(&id, `SELECT owner_id FROM stores WHERE id = $1`, f.storeID); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestSellerGateway: a store using its seller's own gateway shows the Payment Element with the
// seller's publishable key, records its intent as the seller's, and takes the outcome only from
// that gateway's endpoint signed with the seller's secret: 5 concurrent deliveries make one order,
// paid into the seller's account. The platform's endpoint and another secret are refused.
func TestSellerGateway(t *testing.T) {
	f, gatewayID := sellerGatewayShop(t)
	review, checkoutID := checkoutFor(t, f)
	res, body := get(t, client(t), review)
	if res.StatusCode != 200 || !strings.Contains(body, `data-key="pk_test_sellerown"`) || !strings.Contains(body, `id="payment-element"`) {
		t.Fatalf("review %d: the seller's Payment Element is missing\n%s", res.StatusCode, body)
	}
	intent, amount := pendingIntent(t, f, checkoutID)
	var recorded struct {
		Gateway string `db:"gateway"`
		ID      *int64 `db:"payment_gateway_id"`
	}
	f.db.Get(&recorded, `SELECT gateway, payment_gateway_id FROM payments WHERE checkout_id = $1`, checkoutID)
	if recorded.Gateway != gateways.Name(gatewayID) || recorded.ID == nil || *recorded.ID != gatewayID {
		t.Fatalf("the intent was recorded as %+v", recorded)
	}
	own := gateways.WebhookPath(f.owner(t))
	payload, sig := intentEvent(t, sellerHookSecret, "evt_own", "payment_intent.succeeded", intent, amount, "succeeded")
	if code := deliverTo(t, f, "/webhooks/stripe", payload, sig); code != 404 {
		t.Errorf("the platform's endpoint (the test gateway takes no webhooks): %d", code)
	}
	forged, forgedSig := intentEvent(t, testWebhookSecret, "evt_forged", "payment_intent.succeeded", intent, amount, "succeeded")
	if code := deliverTo(t, f, own, forged, forgedSig); code != 400 {
		t.Errorf("another secret at the seller's endpoint: %d", code)
	}
	if code := deliverTo(t, f, gateways.WebhookPath(999999), payload, sig); code != 404 {
		t.Errorf("a seller without gateways: %d", code)
	}
	if code := deliverTo(t, f, "/webhooks/stripe/seller/x", payload, sig); code != 404 {
		t.Errorf("a malformed seller id: %d", code)
	}
	var wg sync.WaitGroup
	codes := make(chan int, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- deliverTo(t, f, own, payload, sig)
		}()
	}
	wg.Wait()
	close(codes)
	for code := range codes {
		if code != 200 {
			t.Errorf("a delivery answered %d", code)
		}
	}
	if got := count(t, f, checkoutID); got != (counts{Orders: 1, Succeeded: 1, Events: 1, Mails: 1, Notices: 1, Checkout: "paid"}) {
		t.Errorf("after the deliveries: %+v", got)
	}
	var entry struct {
		Type  string `db:"type"`
		Owed  int64  `db:"d_owed"`
		Event string `db:"gateway"`
	}
	f.db.Get(&entry, `SELECT e.type, e.d_owed, (SELECT gateway FROM payment_events) AS gateway FROM ledger_entries e`)
	if entry.Type != "fulfill" || entry.Owed <= 0 || entry.Event != gateways.Name(gatewayID) {
		t.Errorf("the order paid into the seller's account: %+v", entry)
	}
}

// TestSellerGatewayRetired: once the seller deleted the gateway, a new review page pays through the
// platform's gateway, while a buyer who had already confirmed the seller's intent returns to an
// order made through the seller's gateway, and its webhook still verifies, even once the same
// Stripe account is connected again (its newer gateway verifies the event too, but knows no such
// payment).
func TestSellerGatewayRetired(t *testing.T) {
	f, gatewayID := sellerGatewayShop(t)
	review, checkoutID := checkoutFor(t, f)
	get(t, client(t), review)
	intent, amount := pendingIntent(t, f, checkoutID)
	f.db.MustExec(`UPDATE stores SET payment_gateway_id = NULL WHERE id = $1`, f.storeID)
	f.db.MustExec(`UPDATE payment_gateways SET retired_at = now() WHERE id = $1`, gatewayID)

	// Another buyer now pays through the platform's (test) gateway, whose page says so.
	other, otherID := checkoutFor(t, f)
	if res, body := get(t, client(t), other); res.StatusCode != 200 || strings.Contains(body, `id="payment-element"`) ||
		!strings.Contains(body, "Test mode") {
		t.Errorf("review after the gateway was deleted %d:\n%s", res.StatusCode, body)
	}
	var n int
	f.db.Get(&n, `SELECT count(*) FROM payments WHERE checkout_id = $1`, otherID)
	if n != 0 {
		t.Errorf("the test gateway's review recorded %d payments", n)
	}

	// Stripe returns the first buyer, whose intent stripe-mock reports as not yet succeeded: the
	// return reads it through the seller's gateway (no new platform payment), then its webhook
	// completes the order.
	res, _ := get(t, client(t), f.srv.URL+"/s/demo/checkout/"+checkoutID+"/return?payment_intent="+intent)
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "/checkout/"+checkoutID+"?m=") {
		t.Errorf("return before the payment went through: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	f.db.Get(&n, `SELECT count(*) FROM payments WHERE checkout_id = $1`, checkoutID)
	if n != 1 {
		t.Errorf("the return made another payment: %d", n)
	}
	f.connect(t)
	payload, sig := intentEvent(t, sellerHookSecret, "evt_late", "payment_intent.succeeded", intent, amount, "succeeded")
	if code := deliverTo(t, f, gateways.WebhookPath(f.owner(t)), payload, sig); code != 200 {
		t.Fatalf("the retired gateway's webhook: %d", code)
	}
	res, _ = get(t, client(t), f.srv.URL+"/s/demo/checkout/"+checkoutID+"/return?payment_intent="+intent)
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "?new=1") {
		t.Errorf("return after the payment: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	var orders int
	f.db.Get(&orders, `SELECT count(*) FROM orders`)
	if orders != 1 {
		t.Errorf("%d orders", orders)
	}
}

// TestSellerGatewayUnreadable: a store whose gateway's keys no longer open (the payment secret key
// changed) takes no payment, saying so, rather than taking it into another account.
func TestSellerGatewayUnreadable(t *testing.T) {
	f, gatewayID := sellerGatewayShop(t)
	f.db.MustExec(`UPDATE payment_gateways SET secret_key_sealed = '\x00' WHERE id = $1`, gatewayID)
	review, checkoutID := checkoutFor(t, f)
	c := client(t)
	if res, body := get(t, c, review); res.StatusCode != 200 || strings.Contains(body, `id="payment-element"`) || strings.Contains(body, "Test mode") {
		t.Fatalf("review %d:\n%s", res.StatusCode, body)
	}
	res, _ := post(t, c, f.srv.URL+"/s/demo/checkout/"+checkoutID+"/pay", nil)
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "cannot+take+payments") && !strings.Contains(loc, "cannot%20take%20payments") {
		t.Errorf("pay: %d %s", res.StatusCode, loc)
	}
	if got := count(t, f, checkoutID); got != (counts{Checkout: "open"}) {
		t.Errorf("after paying: %+v", got)
	}
}
