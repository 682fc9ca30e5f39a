package imageproxy

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/image/webp"

	"github.com/pressroom/pressroom/platform/netguard"
	"github.com/pressroom/pressroom/renderer/imageapi"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// TestRefusedAddressesNeverReachTheCanary runs the proxy against every refused address form; each
// request is refused and the loopback canaries see no connection.
func TestRefusedAddressesNeverReachTheCanary(t *testing.T) {
	c4 := newCanary(t, "127.0.0.1:0")
	if c4 == nil {
		t.Fatal("cannot listen on 127.0.0.1")
	}
	c6 := newCanary(t, "[::1]:0")
	p4 := c4.port()
	p6 := 0
	if c6 != nil {
		p6 = c6.port()
	}
	mux := http.NewServeMux()
	up := newUpstream(t, mux)
	redirect := func(path, to string) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusFound) })
	}
	redirect("/to-loopback", fmt.Sprintf("http://127.0.0.1:%d/x", p4))
	redirect("/to-localhost", fmt.Sprintf("http://localhost:%d/x", p4))
	redirect("/to-decimal", fmt.Sprintf("http://2130706433:%d/x", p4))
	redirect("/to-mapped", fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/x", p4))
	redirect("/to-metadata", "http://169.254.169.254/latest/meta-data/")
	redirect("/to-canary-name", fmt.Sprintf("http://canary.pressroom.test:%d/x", p4))
	redirect("/hop", "/to-loopback")
	resolver := dnsServer(t, netip.MustParseAddr("127.0.0.1"))
	s := newServer(t, withDNS(allowUpstream(testConfig()), resolver))

	tests := []struct {
		name   string
		url    string
		status int
		v6     bool
	}{
		{"loopback", fmt.Sprintf("http://127.0.0.1:%d/", p4), 403, false},
		{"loopback other", fmt.Sprintf("http://127.8.9.10:%d/", p4), 403, false},
		{"unspecified", fmt.Sprintf("http://0.0.0.0:%d/", p4), 403, false},
		{"zero network short", fmt.Sprintf("http://0:%d/", p4), 403, false},
		{"ipv6 loopback", fmt.Sprintf("http://[::1]:%d/", p6), 403, true},
		{"ipv6 unspecified", fmt.Sprintf("http://[::]:%d/", p6), 403, true},
		{"ipv4-mapped loopback", fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", p4), 403, false},
		{"ipv4-mapped hex", fmt.Sprintf("http://[::ffff:7f00:1]:%d/", p4), 403, false},
		{"ipv4-compatible loopback", fmt.Sprintf("http://[::127.0.0.1]:%d/", p4), 403, false},
		{"nat64 loopback", fmt.Sprintf("http://[64:ff9b::127.0.0.1]:%d/", p4), 403, false},
		{"6to4 loopback", fmt.Sprintf("http://[2002:7f00:1::1]:%d/", p4), 403, false},
		{"decimal", fmt.Sprintf("http://2130706433:%d/", p4), 403, false},
		{"hex", fmt.Sprintf("http://0x7f.0.0.1:%d/", p4), 403, false},
		{"hex whole", fmt.Sprintf("http://0x7f000001:%d/", p4), 403, false},
		{"octal", fmt.Sprintf("http://0177.0.0.1:%d/", p4), 403, false},
		{"octal whole", fmt.Sprintf("http://017700000001:%d/", p4), 403, false},
		{"short form", fmt.Sprintf("http://127.1:%d/", p4), 403, false},
		{"leading zeros", fmt.Sprintf("http://127.000.000.001:%d/", p4), 403, false},
		{"trailing dot", fmt.Sprintf("http://127.0.0.1.:%d/", p4), 403, false},
		{"percent-encoded host", fmt.Sprintf("http://%%31%%32%%37.0.0.1:%d/", p4), 400, false},
		{"metadata", "http://169.254.169.254/latest/meta-data/", 403, false},
		{"link-local v6 with zone", fmt.Sprintf("http://[fe80::1%%25lo]:%d/", p6), 403, true},
		{"private 10", "http://10.0.0.1/", 403, false},
		{"private 172.16", "http://172.16.5.4/", 403, false},
		{"private 192.168", "http://192.168.1.1/", 403, false},
		{"cgnat", "http://100.64.0.1/", 403, false},
		{"broadcast", "http://255.255.255.255/", 403, false},
		{"multicast", "http://224.0.0.1/", 403, false},
		{"documentation", "http://192.0.2.1/", 403, false},
		{"unique local v6", "http://[fd00::1]/", 403, false},
		{"name resolving to loopback", fmt.Sprintf("http://localhost:%d/", p4), 403, false},
		{"name resolving to loopback, rooted", fmt.Sprintf("http://localhost.:%d/", p4), 403, false},
		{"resolver entry to loopback", fmt.Sprintf("http://canary.pressroom.test:%d/", p4), 403, false},
		{"redirect to loopback", up.URL + "/to-loopback", 403, false},
		{"redirect to localhost", up.URL + "/to-localhost", 403, false},
		{"redirect to decimal", up.URL + "/to-decimal", 403, false},
		{"redirect to mapped", up.URL + "/to-mapped", 403, false},
		{"redirect to metadata", up.URL + "/to-metadata", 403, false},
		{"redirect to resolver entry", up.URL + "/to-canary-name", 403, false},
		{"redirect chain to loopback", up.URL + "/hop", 403, false},
		{"file scheme", "file:///etc/passwd", 400, false},
		{"gopher scheme", fmt.Sprintf("gopher://127.0.0.1:%d/", p4), 400, false},
		{"relative", "/api/health", 400, false},
		{"user info", fmt.Sprintf("http://user@127.0.0.1:%d/", p4), 400, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.v6 && c6 == nil {
				t.Skip("no IPv6 loopback here")
			}
			a := s.get(t, tc.url, false)
			if a.status != tc.status {
				t.Fatalf("status %d (%q), want %d", a.status, a.env.Message, tc.status)
			}
			want := MsgForbiddenAddr
			if tc.status == 400 {
				want = MsgBadURL
			}
			if a.env.Message != want || a.env.Success {
				t.Errorf("envelope %+v, want message %q", a.env, want)
			}
		})
	}
	if n := c4.settled(t); n != 0 {
		t.Errorf("IPv4 canary accepted %d connections", n)
	}
	if c6 != nil {
		if n := c6.settled(t); n != 0 {
			t.Errorf("IPv6 canary accepted %d connections", n)
		}
	}
}

// TestDialCheckAloneRefuses drives the proxy's HTTP client directly, past the URL checks, so the
// dial-time check is the only guard.
func TestDialCheckAloneRefuses(t *testing.T) {
	c4 := newCanary(t, "127.0.0.1:0")
	p4 := c4.port()
	s := newServer(t, withDNS(testConfig(), dnsServer(t, netip.MustParseAddr("127.0.0.1"))))
	for _, host := range []string{
		"127.0.0.1", "0.0.0.0", "[::ffff:127.0.0.1]", "2130706433", "0x7f.0.0.1", "0177.0.0.1",
		"localhost", "canary.pressroom.test",
	} {
		t.Run(host, func(t *testing.T) {
			resp, err := s.p.client.Get(fmt.Sprintf("http://%s:%d/", host, p4))
			if err == nil {
				resp.Body.Close()
				t.Fatal("fetch succeeded")
			}
			// Go's resolver does not even look up some numeric forms (2130706433, 0177.0.0.1);
			// the others resolve (the test resolver answers 127.0.0.1) and the dial refuses.
			var ae *netguard.AddrError
			var de *net.DNSError
			if !errors.As(err, &ae) && !errors.As(err, &de) {
				t.Errorf("error %v, want an address refusal or no resolution", err)
			}
		})
	}
	if n := c4.settled(t); n != 0 {
		t.Errorf("canary accepted %d connections", n)
	}
}

// TestDefaultPortsOnly checks that without AnyPort only 80 and 443 are dialled.
func TestDefaultPortsOnly(t *testing.T) {
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	// The upstream's IP is admitted as if public, on the default ports only.
	cfg := allowUpstream(DefaultConfig())
	cfg.ClientRate, cfg.AccountRate = 0, 0
	s := newServer(t, cfg)
	a := s.get(t, up.URL+"/x.png", false)
	if a.status != 403 || up.hits.Load() != 0 {
		t.Fatalf("status %d, hits %d: want 403 and no hit", a.status, up.hits.Load())
	}
}

func TestServesImages(t *testing.T) {
	opaque := pngImage(t, 800, 600, true)
	transparent := pngImage(t, 400, 1000, false)
	small := pngImage(t, 50, 40, true)
	gifImg := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	serve := func(ct string, b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			w.Write(b)
		}
	}
	webp, err := os.ReadFile("../../renderer/imagelimit/testdata/blue-purple-pink.lossy.webp")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/image.webp", serve("application/octet-stream", webp))
	mux.Handle("/opaque.png", serve("image/png", opaque))
	mux.Handle("/lying.html", serve("text/html", opaque))
	mux.Handle("/transparent.png", serve("image/png", transparent))
	mux.Handle("/small.png", serve("image/png", small))
	mux.Handle("/pixel.gif", serve("image/gif", gifImg))
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/opaque.png", http.StatusMovedPermanently)
	})
	up := newUpstream(t, mux)
	s := newServer(t, allowUpstream(testConfig()))

	tests := []struct {
		name     string
		path     string
		thumb    bool
		wantType string
		wantBody []byte // nil: check size instead
		maxW     int
		maxH     int
		wantW    int
	}{
		{"original bytes", "/opaque.png", false, "image/png", opaque, 0, 0, 0},
		{"type sniffed not trusted", "/lying.html", false, "image/png", opaque, 0, 0, 0},
		{"after a redirect", "/moved", false, "image/png", opaque, 0, 0, 0},
		{"gif", "/pixel.gif", false, "image/gif", gifImg, 0, 0, 0},
		{"webp", "/image.webp", false, "image/webp", webp, 0, 0, 0},
		{"small webp thumbnail", "/image.webp", true, "image/jpeg", nil, 150, 100, 150},
		{"opaque thumbnail is jpeg", "/opaque.png", true, "image/jpeg", nil, imageapi.ThumbWidth, imageapi.ThumbHeight, 160},
		{"transparent thumbnail is png", "/transparent.png", true, "image/png", nil, imageapi.ThumbWidth, imageapi.ThumbHeight, 80},
		{"small is not enlarged", "/small.png", true, "image/jpeg", nil, 50, 40, 50},
		{"transparent gif thumbnail", "/pixel.gif", true, "image/png", nil, 1, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := s.get(t, up.URL+tc.path, tc.thumb)
			if a.status != 200 {
				t.Fatalf("status %d: %s", a.status, a.body)
			}
			if got := a.header.Get("Content-Type"); got != tc.wantType {
				t.Errorf("Content-Type %q, want %q", got, tc.wantType)
			}
			if !strings.Contains(a.header.Get("Cache-Control"), "public, max-age=86400") || a.header.Get("ETag") == "" {
				t.Errorf("cache headers %q %q", a.header.Get("Cache-Control"), a.header.Get("ETag"))
			}
			if tc.wantBody != nil {
				if !bytes.Equal(a.body, tc.wantBody) {
					t.Errorf("body differs from upstream (%d bytes, want %d)", len(a.body), len(tc.wantBody))
				}
				return
			}
			img, _, err := image.Decode(bytes.NewReader(a.body))
			if err != nil {
				t.Fatalf("thumbnail does not decode: %v", err)
			}
			b := img.Bounds()
			if b.Dx() > tc.maxW || b.Dy() > tc.maxH || b.Dx() != tc.wantW {
				t.Errorf("thumbnail %dx%d, want width %d within %dx%d", b.Dx(), b.Dy(), tc.wantW, tc.maxW, tc.maxH)
			}
		})
	}
}

func TestRefusesBadContent(t *testing.T) {
	img := pngImage(t, 64, 64, true)
	mux := http.NewServeMux()
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("<!doctype html><script>alert(1)</script>"))
	})
	mux.HandleFunc("/image.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`))
	})
	mux.HandleFunc("/truncated.png", func(w http.ResponseWriter, r *http.Request) { w.Write(img[:20]) })
	mux.HandleFunc("/big.png", func(w http.ResponseWriter, r *http.Request) { w.Write(img) })
	mux.HandleFunc("/big-chunked.png", func(w http.ResponseWriter, r *http.Request) {
		w.Write(img[:100])
		w.(http.Flusher).Flush()
		w.Write(img[100:])
	})
	mux.HandleFunc("/huge.png", func(w http.ResponseWriter, r *http.Request) { w.Write(hugePNG(t, 100000, 100000)) })
	mux.HandleFunc("/missing.png", http.NotFound)
	mux.HandleFunc("/redirect-loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/redirect-loop", http.StatusFound) })
	mux.HandleFunc("/slow.png", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	up := newUpstream(t, mux)
	cfg := testConfig()
	cfg.MaxBytes = int64(len(img)) - 1
	cfg.Timeout = 300 * time.Millisecond
	s := newServer(t, allowUpstream(cfg))

	tests := []struct {
		name   string
		path   string
		thumb  bool
		status int
		msg    string
	}{
		{"html", "/page.html", false, 415, MsgNotImage},
		{"svg", "/image.svg", false, 415, MsgNotImage},
		{"truncated header", "/truncated.png", false, 415, MsgNotImage},
		{"over max bytes", "/big.png", false, 413, "The image is larger than 1 MiB."},
		{"over max bytes without length", "/big-chunked.png", false, 413, "The image is larger than 1 MiB."},
		{"100000x100000 declared", "/huge.png", false, 413, MsgTooManyPixels},
		{"100000x100000 thumbnail", "/huge.png", true, 413, MsgTooManyPixels},
		{"upstream 404", "/missing.png", false, 502, MsgUpstream},
		{"redirect loop", "/redirect-loop", false, 502, MsgUpstream},
		{"slow upstream", "/slow.png", false, 504, MsgTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := s.get(t, up.URL+tc.path, tc.thumb)
			if a.status != tc.status || a.env.Message != tc.msg {
				t.Fatalf("got %d %q, want %d %q", a.status, a.env.Message, tc.status, tc.msg)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	img := pngImage(t, 10, 10, true)
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(img) }))
	s := newServer(t, allowUpstream(testConfig()))
	target := up.URL + "/a.png"
	other := up.URL + "/b.png"
	good := s.p.signer.sign(target)
	past := s.p.signer
	past.now = func() time.Time { return time.Now().Add(-30 * 24 * time.Hour) }
	expired := past.sign(target)
	foreignKey := s.p.signer
	foreignKey.key = []byte("another key of at least thirty-two bytes")
	exp, sig, _ := strings.Cut(good, ".")

	tests := []struct {
		name   string
		query  url.Values
		status int
		msg    string
	}{
		{"good", url.Values{"url": {target}, "token": {good}}, 200, ""},
		{"no url", url.Values{"token": {good}}, 400, MsgBadURL},
		{"no token", url.Values{"url": {target}}, 403, MsgBadToken},
		{"session-like token", url.Values{"url": {target}, "token": {"0123456789abcdef0123456789abcdef"}}, 403, MsgBadToken},
		{"other url's token", url.Values{"url": {other}, "token": {good}}, 403, MsgBadToken},
		{"url changed in case", url.Values{"url": {strings.Replace(target, "http", "HTTP", 1)}, "token": {good}}, 403, MsgBadToken},
		{"expired", url.Values{"url": {target}, "token": {expired}}, 403, MsgBadToken},
		{"expiry extended", url.Values{"url": {target}, "token": {"9" + exp + "." + sig}}, 403, MsgBadToken},
		{"other key", url.Values{"url": {target}, "token": {foreignKey.sign(target)}}, 403, MsgBadToken},
		{"signature only", url.Values{"url": {target}, "token": {sig}}, 403, MsgBadToken},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := s.getQuery(t, tc.query.Encode())
			if a.status != tc.status || (tc.msg != "" && a.env.Message != tc.msg) {
				t.Fatalf("got %d %q, want %d %q", a.status, a.env.Message, tc.status, tc.msg)
			}
		})
	}
	if n := up.hits.Load(); n != 1 {
		t.Errorf("upstream hit %d times, want only for the good token", n)
	}
}

func TestSignedURL(t *testing.T) {
	img := pngImage(t, 10, 10, true)
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(img) }))
	s := newServer(t, allowUpstream(testConfig()))
	t.Run("go function round trip", func(t *testing.T) {
		signed, err := s.p.SignedURL(up.URL + "/x.png?size=1&a=b")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(signed, Path+"?") {
			t.Fatalf("signed %q", signed)
		}
		a := s.getQuery(t, strings.TrimPrefix(signed, Path+"?"))
		if a.status != 200 || !bytes.Equal(a.body, img) {
			t.Fatalf("status %d", a.status)
		}
	})
	t.Run("stable within a day", func(t *testing.T) {
		a, _ := s.p.SignedURL("https://cdn.example.com/a.png")
		b, _ := s.p.SignedURL("https://cdn.example.com/a.png")
		if a != b {
			t.Errorf("%q != %q", a, b)
		}
	})
	for _, tc := range []struct {
		name, url string
		status    int
		msg       string
	}{
		{"sign route", "https://cdn.example.com/a.png", 200, ""},
		{"sign route refuses private", "http://10.1.2.3/a.png", 403, MsgForbiddenAddr},
		{"sign route refuses decimal", "http://2130706433/a.png", 403, MsgForbiddenAddr},
		{"sign route refuses ftp", "ftp://cdn.example.com/a.png", 400, MsgBadURL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Post(s.srv.URL+SignPath, "application/json",
				strings.NewReader(fmt.Sprintf(`{"url":%q}`, tc.url)))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var env struct {
				Success bool
				Message string
				Data    struct{ URL string }
			}
			if err := jsonDecode(resp.Body, &env); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status || env.Message != tc.msg {
				t.Fatalf("got %d %q, want %d %q", resp.StatusCode, env.Message, tc.status, tc.msg)
			}
			if tc.status == 200 {
				want, _ := s.p.SignedURL(tc.url)
				if env.Data.URL != want {
					t.Errorf("data.url %q, want %q", env.Data.URL, want)
				}
			}
		})
	}
}

func TestCache(t *testing.T) {
	img := pngImage(t, 300, 300, true)
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(img) }))
	s := newServer(t, allowUpstream(testConfig()))
	target := up.URL + "/a.png"
	first := s.get(t, target, false)
	steps := []struct {
		name   string
		thumb  bool
		header []string
		status int
	}{
		{"original again", false, nil, 200},
		{"thumbnail from the cached original", true, nil, 200},
		{"thumbnail again", true, nil, 200},
		{"conditional", false, []string{"If-None-Match", first.header.Get("ETag")}, 304},
		{"conditional other etag", false, []string{"If-None-Match", `"nope"`}, 200},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			a := s.get(t, target, st.thumb, st.header...)
			if a.status != st.status {
				t.Fatalf("status %d, want %d", a.status, st.status)
			}
			if n := up.hits.Load(); n != 1 {
				t.Errorf("upstream hit %d times, want 1", n)
			}
		})
	}
}

func TestConcurrentFirstRequestsFetchOnce(t *testing.T) {
	for _, cacheBytes := range []int64{0, 64 << 20} {
		t.Run(fmt.Sprintf("cache %d", cacheBytes), func(t *testing.T) {
			img := pngImage(t, 300, 300, true)
			release := make(chan struct{})
			up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				<-release
				w.Write(img)
			}))
			cfg := testConfig()
			cfg.CacheBytes = cacheBytes
			s := newServer(t, allowUpstream(cfg))
			const n = 16
			var wg sync.WaitGroup
			statuses := make([]int, n)
			for i := range n {
				wg.Go(func() { statuses[i] = s.get(t, up.URL+"/a.png", false).status })
			}
			// Wait until every request is at the flight (the one fetching and the others waiting on
			// it), or a second fetch reached the upstream, which fails below.
			for h := up.hits.Load(); h < 2 && (h < 1 || inFlight() < n); h = up.hits.Load() {
				time.Sleep(time.Millisecond)
			}
			close(release)
			wg.Wait()
			for i, st := range statuses {
				if st != 200 {
					t.Errorf("request %d: status %d", i, st)
				}
			}
			if h := up.hits.Load(); h != 1 {
				t.Errorf("upstream hit %d times for %d concurrent requests, want 1", h, n)
			}
		})
	}
}

// TestFetchesInFlightAreBounded holds MaxFetches upstream fetches of distinct addresses open: the
// next distinct address is answered 503 with Retry-After without reaching the upstream, and the held
// fetches still succeed.
func TestFetchesInFlightAreBounded(t *testing.T) {
	img := pngImage(t, 50, 50, true)
	release := make(chan struct{})
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		w.Write(img)
	}))
	cfg := testConfig()
	cfg.MaxFetches, cfg.CacheBytes = 2, 0
	s := newServer(t, allowUpstream(cfg))
	var wg sync.WaitGroup
	statuses := make([]int, cfg.MaxFetches)
	for i := range cfg.MaxFetches {
		wg.Go(func() { statuses[i] = s.get(t, fmt.Sprintf("%s/held%d.png", up.URL, i), false).status })
	}
	for up.hits.Load() < int64(cfg.MaxFetches) {
		time.Sleep(time.Millisecond)
	}
	busy := s.get(t, up.URL+"/one-more.png", false)
	close(release)
	wg.Wait()
	if busy.status != http.StatusServiceUnavailable || busy.header.Get("Retry-After") == "" || busy.env.Message != MsgBusy {
		t.Errorf("fetch beyond the bound = %d Retry-After %q %q, want 503 with Retry-After and %q",
			busy.status, busy.header.Get("Retry-After"), busy.env.Message, MsgBusy)
	}
	if h := up.hits.Load(); h != int64(cfg.MaxFetches) {
		t.Errorf("upstream hit %d times, want %d (the refused fetch must not reach it)", h, cfg.MaxFetches)
	}
	for i, st := range statuses {
		if st != 200 {
			t.Errorf("held fetch %d: status %d", i, st)
		}
	}
	if a := s.get(t, up.URL+"/one-more.png", false); a.status != 200 {
		t.Errorf("after the held fetches ended: status %d, want 200", a.status)
	}
}

// TestWebPThumbnails asks for thumbnails with a browser's Accept: WebP of the thumbnail's size when
// it names image/webp, the JPEG or PNG otherwise, each answer saying it varies by Accept; originals
// never vary.
func TestWebPThumbnails(t *testing.T) {
	if !webpenc.Available {
		t.Skip("a renderer built without cgo has no WebP encoder")
	}
	opaque := pngImage(t, 800, 600, true)
	transparent := pngImage(t, 400, 1000, false)
	mux := http.NewServeMux()
	for path, b := range map[string][]byte{"/opaque.png": opaque, "/transparent.png": transparent} {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { w.Write(b) })
	}
	up := newUpstream(t, mux)
	s := newServer(t, allowUpstream(testConfig()))
	const chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
	tests := []struct {
		name, path, accept, wantType string
		wantW, wantH                 int
	}{
		{"chrome, opaque", "/opaque.png", chrome, "image/webp", 160, 120},
		{"chrome, transparent", "/transparent.png", chrome, "image/webp", 80, 200},
		{"no accept", "/opaque.png", "", "image/jpeg", 160, 120},
		{"wildcards only", "/transparent.png", "image/*,*/*;q=0.8", "image/png", 80, 200},
		{"webp refused", "/opaque.png", "image/webp;q=0, */*", "image/jpeg", 160, 120},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := s.get(t, up.URL+tc.path, true, "Accept", tc.accept)
			if a.status != 200 || a.header.Get("Content-Type") != tc.wantType || a.header.Get("Vary") != "Accept" {
				t.Fatalf("status %d, Content-Type %q, Vary %q; want 200 %s varying by Accept", a.status,
					a.header.Get("Content-Type"), a.header.Get("Vary"), tc.wantType)
			}
			var cfg image.Config
			var err error
			if tc.wantType == "image/webp" {
				cfg, err = webp.DecodeConfig(bytes.NewReader(a.body))
			} else {
				cfg, _, err = image.DecodeConfig(bytes.NewReader(a.body))
			}
			if err != nil || cfg.Width != tc.wantW || cfg.Height != tc.wantH {
				t.Fatalf("thumbnail %dx%d (%v), want %dx%d", cfg.Width, cfg.Height, err, tc.wantW, tc.wantH)
			}
		})
	}
	// The two forms are cached apart: asked again, each comes back as it was.
	if a := s.get(t, up.URL+"/opaque.png", true, "Accept", chrome); a.header.Get("Content-Type") != "image/webp" {
		t.Fatalf("WebP thumbnail again: %q", a.header.Get("Content-Type"))
	}
	if a := s.get(t, up.URL+"/opaque.png", false, "Accept", chrome); a.header.Get("Content-Type") != "image/png" || a.header.Get("Vary") != "" {
		t.Fatalf("original: Content-Type %q, Vary %q; want the PNG as fetched, not varying", a.header.Get("Content-Type"), a.header.Get("Vary"))
	}
}

func TestAcceptsWebP(t *testing.T) {
	tests := []struct {
		accept []string
		want   bool
	}{
		{nil, false},
		{[]string{"*/*"}, false},
		{[]string{"image/avif,image/webp,*/*"}, true},
		{[]string{"text/html", "IMAGE/WEBP;q=0.5"}, true},
		{[]string{"image/webp;q=0"}, false},
		{[]string{"image/webpx"}, false},
	}
	for _, tc := range tests {
		if got := acceptsWebP(tc.accept); got != tc.want {
			t.Errorf("acceptsWebP(%q) = %v, want %v", tc.accept, got, tc.want)
		}
	}
}

// TestRendererDown points the proxy at a renderer that is not there, and at one that does not
// know its key: the fetched image cannot be checked, so the answer is 503 with a clear message.
func TestRendererDown(t *testing.T) {
	img := pngImage(t, 50, 50, true)
	up := newUpstream(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(img) }))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		name string
		cfg  func(Config) Config
	}{
		{"nothing listens", func(c Config) Config { c.RendererURL = gone; return c }},
		{"another key", func(c Config) Config {
			c.RendererURL = newRenderer(t)
			c.RendererKey = "not the key the renderer was given, 32+ bytes"
			return c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, tc.cfg(allowUpstream(testConfig())))
			for _, thumb := range []bool{false, true} {
				a := s.get(t, up.URL+"/a.png", thumb)
				if a.status != http.StatusServiceUnavailable || a.env.Message != MsgRendererDown || a.header.Get("Retry-After") == "" {
					t.Errorf("thumbnail %v: got %d %q Retry-After %q, want 503 %q", thumb, a.status, a.env.Message,
						a.header.Get("Retry-After"), MsgRendererDown)
				}
			}
		})
	}
}
