package shop

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
)

// Browsers as their User-Agent names them.
const (
	uaDesktop = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaPhone   = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
	uaAndroid = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
	uaTablet  = "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaIPad    = "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
	uaBot     = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
)

// asBrowser sends ua with every request.
type asBrowser string

func (ua asBrowser) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("User-Agent", string(ua))
	return http.DefaultTransport.RoundTrip(r)
}

// browser is client that says it is ua.
func browser(ua string) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Transport: asBrowser(ua),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func TestOverviewDeviceOf(t *testing.T) {
	for _, tc := range []struct{ name, ua, want string }{
		{"desktop Chrome", uaDesktop, "desktop"},
		{"iPhone", uaPhone, "mobile"},
		{"Android phone", uaAndroid, "mobile"},
		{"Android tablet", uaTablet, "tablet"},
		{"iPad", uaIPad, "tablet"},
		{"a robot", uaBot, ""},
		{"nothing said", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := deviceOf(tc.ua); got != tc.want {
				t.Errorf("deviceOf = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOverviewVisits: the store's pages opened by buyers are counted per store, hour and device
// class, written only when flushed and added to the same rows by the next flush; the cart, the
// search and robots are not visits; a checkout keeps the device it was saved from, so the order
// made from it does too.
func TestOverviewVisits(t *testing.T) {
	f := setup(t)
	base := f.srv.URL + "/s/demo"
	phone, desk, bot := browser(uaPhone), browser(uaDesktop), browser(uaBot)
	get(t, phone, base+"/")
	get(t, phone, base+"/c/"+itoa(f.campaign))
	get(t, desk, base+"/")
	get(t, bot, base+"/")
	get(t, desk, base+"/cart")
	get(t, desk, base+"/search?q=cats")
	get(t, desk, f.srv.URL+"/s/nowhere/")
	read := func() string {
		var rows []struct {
			Device string `db:"device"`
			Visits int    `db:"visits"`
		}
		if err := f.db.Select(&rows, `SELECT device, visits FROM store_visits WHERE store_id = $1 ORDER BY device`, f.storeID); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			out = append(out, fmt.Sprintf("%s %d", r.Device, r.Visits))
		}
		return strings.Join(out, ", ")
	}
	if got := read(); got != "" {
		t.Fatalf("written before the flush: %s", got)
	}
	if err := f.shop.visits.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := read(), "desktop 1, mobile 2"; got != want {
		t.Fatalf("visits %q, want %q", got, want)
	}
	get(t, desk, base+"/")
	if err := f.shop.visits.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := read(), "desktop 2, mobile 2"; got != want {
		t.Fatalf("after a second flush %q, want %q", got, want)
	}

	post(t, phone, base+"/cart/items", url.Values{"product_id": {itoa(f.shirt)}, "color": {"Black"}, "size": {"L"}, "quantity": {"1"}})
	if res, body := post(t, phone, base+"/checkout", address()); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("checkout %d\n%s", res.StatusCode, body)
	}
	var device string
	if err := f.db.Get(&device, `SELECT device FROM checkouts`); err != nil || device != "mobile" {
		t.Fatalf("checkout device %q, %v", device, err)
	}
}
