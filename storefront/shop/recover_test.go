package shop

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/commerce/recovery"
)

// TestRecoverLink: a buyer leaves a checkout, it is abandoned, and the link of the recovery e-mail
// opened in another browser brings the cart back and leads to the checkout; paying it pays the same
// checkout, marked recovered; the link then shows the order. A forged token shows nothing.
func TestRecoverLink(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo"
	post(t, c, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"L"}, "quantity": {"3"}})
	if res, _ := post(t, c, base+"/checkout", address()); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("checkout %d", res.StatusCode)
	}
	var id string
	if err := f.db.Get(&id, `SELECT id FROM checkouts`); err != nil {
		t.Fatal(err)
	}
	if n, err := recovery.MarkAbandoned(context.Background(), f.db, time.Now().Add(2*time.Hour), time.Hour, 10); err != nil || n != 1 {
		t.Fatalf("abandoned %d, %v", n, err)
	}
	// The buyer emptied the cart before leaving.
	f.db.MustExec(`DELETE FROM cart_items`)

	link := base + recovery.Path(DefaultConfig().SigningKey, f.storeID, id)
	if res, _ := get(t, client(t), base+"/recover/"+id+"/00000000000000000000000000000000"); res.StatusCode != http.StatusNotFound {
		t.Errorf("forged recovery link: %d", res.StatusCode)
	}
	other := client(t) // the e-mail is opened in another browser
	res, _ := get(t, other, link)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/s/demo/checkout" {
		t.Fatalf("recovery link %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	_, body := get(t, other, base+"/cart")
	if !strings.Contains(body, "$59.97") {
		t.Fatalf("restored cart lacks the three shirts:\n%s", body)
	}
	res, _ = post(t, other, base+"/checkout", address())
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(res.Header.Get("Location"), "/checkout/"+id) {
		t.Fatalf("checkout after recovery %d %s, want the same checkout %s", res.StatusCode, res.Header.Get("Location"), id)
	}
	if res, _ := post(t, other, f.srv.URL+res.Header.Get("Location")+"/pay", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pay %d", res.StatusCode)
	}
	var got struct {
		Checkouts int  `db:"checkouts"`
		Recovered bool `db:"recovered"`
		Orders    int  `db:"orders"`
	}
	f.db.Get(&got, `SELECT (SELECT count(*) FROM checkouts) AS checkouts, (SELECT count(*) FROM orders) AS orders,
		(SELECT recovered_at IS NOT NULL FROM checkouts WHERE id = $1 AND status = 'paid') AS recovered`, id)
	if got.Checkouts != 1 || got.Orders != 1 || !got.Recovered {
		t.Errorf("after paying the recovered checkout: %+v", got)
	}
	res, _ = get(t, client(t), link)
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "/s/demo/orders/") {
		t.Errorf("link of a paid checkout: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
}
