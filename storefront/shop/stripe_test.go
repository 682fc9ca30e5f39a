package shop

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/pressroom/pressroom/commerce/payments"
	"github.com/pressroom/pressroom/platform/testinfra"
)

const testWebhookSecret = "whsec_pressroom_test"

// stripeShop is the fixture store paying through Stripe (stripe-mock), with a checkout of one shirt
// shipped to the US; it answers the review page's URL and the checkout id.
func stripeShop(t *testing.T) (fixture, string, string) {
	t.Helper()
	gw, err := payments.NewStripe(payments.StripeConfig{SecretKey: "sk_test_123", PublishableKey: "pk_test_123",
		WebhookSecret: testWebhookSecret, APIBase: testinfra.StripeURL(t)})
	if err != nil {
		t.Fatal(err)
	}
	f := setupWith(t, gw)
	review, id := checkoutFor(t, f)
	return f, review, id
}

// checkoutFor puts a shirt in a new cart and saves the checkout, shipped to the US; it answers the
// review page's URL and the checkout's id.
func checkoutFor(t *testing.T, f fixture) (string, string) {
	t.Helper()
	c := client(t)
	base := f.srv.URL + "/s/demo"
	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"M"}, "quantity": {"1"}})
	res, _ := post(t, c, base+"/checkout", address())
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("checkout %d", res.StatusCode)
	}
	review := res.Header.Get("Location")
	return f.srv.URL + review, review[strings.LastIndex(review, "/")+1:]
}

// intentEvent is a Stripe event about an intent, signed with secret as Stripe signs it.
func intentEvent(t *testing.T, secret, eventID, typ, intentID string, amount int64, status string) ([]byte, string) {
	t.Helper()
	payload := []byte(fmt.Sprintf(`{"id":%q,"object":"event","api_version":%q,"type":%q,"data":{"object":`+
		`{"id":%q,"object":"payment_intent","amount":%d,"currency":"usd","status":%q,`+
		`"last_payment_error":{"message":"Your card was declined."}}}}`, eventID, stripe.APIVersion, typ, intentID, amount, status))
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
	return payload, signed.Header
}

func deliver(t *testing.T, f fixture, payload []byte, header string) int {
	t.Helper()
	return deliverTo(t, f, webhookPath, payload, header)
}

// deliverTo posts a webhook to path with its Stripe-Signature header and answers the status.
func deliverTo(t *testing.T, f fixture, path string, payload []byte, header string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.srv.URL+path, bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Stripe-Signature", header)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// counts are what a webhook may have changed.
type counts struct {
	Orders, Succeeded, Failed, Events, Mails, Notices int
	Checkout                                          string
}

func count(t *testing.T, f fixture, checkoutID string) counts {
	t.Helper()
	var c counts
	err := f.db.QueryRow(`SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM payments WHERE status = 'succeeded'),
		(SELECT count(*) FROM payments WHERE status = 'failed'), (SELECT count(*) FROM payment_events),
		(SELECT count(*) FROM mail_outbox), (SELECT count(*) FROM notifications), (SELECT status FROM checkouts WHERE id = $1)`,
		checkoutID).Scan(&c.Orders, &c.Succeeded, &c.Failed, &c.Events, &c.Mails, &c.Notices, &c.Checkout)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// pendingIntent is the intent the review page recorded for the checkout, and its amount.
func pendingIntent(t *testing.T, f fixture, checkoutID string) (string, int64) {
	t.Helper()
	var id string
	var amount int64
	if err := f.db.QueryRow(`SELECT intent_id, amount FROM payments WHERE checkout_id = $1`, checkoutID).Scan(&id, &amount); err != nil {
		t.Fatal(err)
	}
	return id, amount
}

// TestStripeReviewPage shows the Payment Element for the checkout's intent, allowed by the page's
// CSP, and shows the same intent again on a second visit.
func TestStripeReviewPage(t *testing.T) {
	f, review, checkoutID := stripeShop(t)
	c := client(t)
	res, body := get(t, c, review)
	if res.StatusCode != 200 {
		t.Fatalf("review %d\n%s", res.StatusCode, body)
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'nonce-") || !strings.Contains(csp, "https://js.stripe.com") {
		t.Errorf("CSP %q does not allow Stripe.js", csp)
	}
	for _, want := range []string{`<script src="https://js.stripe.com/v3/"></script>`, `id="payment-element"`, `data-key="pk_test_123"`,
		`data-secret="pi_`, `/s/demo/checkout/` + checkoutID + `/return"`, "confirmPayment"} {
		if !strings.Contains(body, want) {
			t.Errorf("review lacks %q", want)
		}
	}
	if strings.Contains(body, `action="/s/demo/checkout/`+checkoutID+`/pay"`) {
		t.Errorf("review posts to the test gateway's pay form")
	}
	first, amount := pendingIntent(t, f, checkoutID)
	if amount != 1999+499+100 { // a shirt, its US shipping and a 5 % tip
		t.Errorf("intent of %d", amount)
	}
	get(t, c, review)
	var n int
	f.db.Get(&n, `SELECT count(*) FROM payments WHERE checkout_id = $1`, checkoutID)
	if again, _ := pendingIntent(t, f, checkoutID); again != first || n != 1 {
		t.Errorf("second visit: intent %s (first %s), %d payments", again, first, n)
	}
}

// TestStripeWebhook: a signed payment_intent.succeeded makes one order with its confirmation mail
// and the seller's notification; the same event 5 times at once, with a late failure of the same
// intent among them, changes nothing more.
func TestStripeWebhook(t *testing.T) {
	f, review, checkoutID := stripeShop(t)
	get(t, client(t), review)
	intent, amount := pendingIntent(t, f, checkoutID)

	payload, sig := intentEvent(t, testWebhookSecret, "evt_ok", "payment_intent.succeeded", intent, amount, "succeeded")
	failPayload, failSig := intentEvent(t, testWebhookSecret, "evt_late_fail", "payment_intent.payment_failed", intent, amount, "requires_payment_method")
	var wg sync.WaitGroup
	codes := make(chan int, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 3 {
				codes <- deliver(t, f, failPayload, failSig)
				return
			}
			codes <- deliver(t, f, payload, sig)
		}()
	}
	wg.Wait()
	close(codes)
	for code := range codes {
		if code != 200 {
			t.Errorf("delivery answered %d", code)
		}
	}
	got := count(t, f, checkoutID)
	if got != (counts{Orders: 1, Succeeded: 1, Failed: 0, Events: 2, Mails: 1, Notices: 1, Checkout: "paid"}) {
		t.Errorf("after the deliveries: %+v", got)
	}

	var to, subject, body string
	if err := f.db.QueryRow(`SELECT to_address, subject, body FROM mail_outbox`).Scan(&to, &subject, &body); err != nil {
		t.Fatal(err)
	}
	var orderID int64
	f.db.Get(&orderID, `SELECT id FROM orders`)
	h := f.srv.Config.Handler.(*Server)
	link := "/orders/" + itoa(orderID) + "/" + h.orderToken(f.storeID, orderID)
	if to != "buyer@example.com" || !strings.Contains(subject, "1001") || !strings.Contains(body, "http://demo.localhost:8082"+link) {
		t.Errorf("confirmation to %s, %q:\n%s", to, subject, body)
	}
	if res, _ := get(t, client(t), f.srv.URL+"/s/demo"+link); res.StatusCode != 200 {
		t.Errorf("the mailed link answers %d", res.StatusCode)
	}
	var seller int64
	var notice string
	f.db.QueryRow(`SELECT seller_id, subject FROM notifications`).Scan(&seller, &notice)
	var owner int64
	f.db.Get(&owner, `SELECT owner_id FROM stores WHERE id = $1`, f.storeID)
	if seller != owner || notice != "New order 1001" {
		t.Errorf("notification %q for %d, want the store owner %d", notice, seller, owner)
	}
}

// TestStripeWebhookRefused: a wrong signature, a stale one and an oversized body answer 4xx and
// store nothing; a failed payment leaves the checkout open for another try.
func TestStripeWebhookRefused(t *testing.T) {
	f, review, checkoutID := stripeShop(t)
	get(t, client(t), review)
	intent, amount := pendingIntent(t, f, checkoutID)

	payload, _ := intentEvent(t, "whsec_someone_else", "evt_forged", "payment_intent.succeeded", intent, amount, "succeeded")
	_, sig := intentEvent(t, "whsec_someone_else", "evt_forged", "payment_intent.succeeded", intent, amount, "succeeded")
	if code := deliver(t, f, payload, sig); code != 400 {
		t.Errorf("forged signature: %d", code)
	}
	stale := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: testWebhookSecret,
		Timestamp: time.Now().Add(-time.Hour)})
	if code := deliver(t, f, payload, stale.Header); code != 400 {
		t.Errorf("stale signature: %d", code)
	}
	if code := deliver(t, f, payload, ""); code != 400 {
		t.Errorf("no signature: %d", code)
	}
	big := bytes.Repeat([]byte(" "), maxWebhook+1)
	if code := deliver(t, f, big, webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: big, Secret: testWebhookSecret}).Header); code != 413 {
		t.Errorf("oversized body: %d", code)
	}
	if got := count(t, f, checkoutID); got != (counts{Checkout: "open"}) {
		t.Errorf("after refused deliveries: %+v", got)
	}

	failPayload, failSig := intentEvent(t, testWebhookSecret, "evt_fail", "payment_intent.payment_failed", intent, amount, "requires_payment_method")
	if code := deliver(t, f, failPayload, failSig); code != 200 {
		t.Errorf("failed payment event: %d", code)
	}
	if got := count(t, f, checkoutID); got != (counts{Failed: 1, Events: 1, Checkout: "open"}) {
		t.Errorf("after a failed payment: %+v", got)
	}
	// The buyer tries again on the same page: the checkout is still open with its intent.
	if res, body := get(t, client(t), review); res.StatusCode != 200 || !strings.Contains(body, `id="payment-element"`) {
		t.Errorf("review after a failure %d", res.StatusCode)
	}
}

// TestConfirmationEscapes: a store name with markup stays text in the confirmation's HTML part.
func TestConfirmationEscapes(t *testing.T) {
	m, err := parseMail()
	if err != nil {
		t.Fatal(err)
	}
	msg, err := m.message(confirmation{To: "b@example.com", Store: evil + "\r\nBcc: x@example.com", Number: "1001", Total: "$1.00",
		Link: `http://demo.localhost:8082/orders/1/abc"><script>`})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(msg.HTML, "<script>") || !strings.Contains(msg.HTML, "&lt;script&gt;") {
		t.Errorf("HTML part not escaped:\n%s", msg.HTML)
	}
	if strings.ContainsAny(msg.Subject, "\r\n") {
		t.Errorf("subject %q carries a line break", msg.Subject)
	}
}
