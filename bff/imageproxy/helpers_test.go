package imageproxy

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/labstack/echo/v4"
	"golang.org/x/net/dns/dnsmessage"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/renderer/imageapi"
	"github.com/pressroom/pressroom/renderer/proxyimage"
)

// canary is a listener that must never be connected to: it counts what it accepts.
type canary struct {
	ln       net.Listener
	accepted atomic.Int64
}

func newCanary(t *testing.T, addr string) *canary {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil
	}
	c := &canary{ln: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.accepted.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return c
}

func (c *canary) port() int { return c.ln.Addr().(*net.TCPAddr).Port }

// settled returns how many connections the canary accepted before this call: it connects once
// itself and waits for that connection, which the accept queue delivers after any earlier one.
func (c *canary) settled(t *testing.T) int64 {
	t.Helper()
	before := c.accepted.Load()
	conn, err := net.Dial("tcp", c.ln.Addr().String())
	if err != nil {
		t.Fatalf("canary unreachable: %v", err)
	}
	conn.Close()
	for c.accepted.Load() == before {
		// Spin until the sentinel is accepted; nothing else connects in between.
		runtime.Gosched()
	}
	return c.accepted.Add(-1)
}

// pngImage encodes a w x h PNG, opaque or with a transparent corner.
func pngImage(t testing.TB, w, h int, opaque bool) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	if !opaque {
		img.SetNRGBA(0, 0, color.NRGBA{})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hugePNG is a valid small PNG whose header declares w x h pixels.
func hugePNG(t testing.TB, w, h uint32) []byte {
	b := pngImage(t, 1, 1, true)
	// IHDR data starts at 16: signature 8, length 4, type 4.
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// upstream is a local test server counting hits per path.
type upstream struct {
	*httptest.Server
	hits atomic.Int64
	addr netip.AddrPort
}

func newUpstream(t testing.TB, h http.Handler) *upstream {
	t.Helper()
	u := &upstream{}
	u.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	// Not on 127.0.0.1, where the canaries and the renderer listen: the tests admit this address
	// alone (Config.Allow), as if it were a public host.
	ln, err := net.Listen("tcp", upstreamIP+":0")
	if err != nil {
		t.Fatal(err)
	}
	u.Listener.Close()
	u.Listener = ln
	u.Start()
	t.Cleanup(u.Close)
	u.addr = netip.MustParseAddrPort(u.Listener.Addr().String())
	return u
}

// upstreamIP is the loopback address the test upstreams listen on.
const upstreamIP = "127.0.0.2"

// allowUpstream is cfg admitting the upstreams' address, as if it were public.
func allowUpstream(cfg Config) Config {
	cfg.Allow = []netip.Prefix{netip.MustParsePrefix(upstreamIP + "/32")}
	return cfg
}

// testConfig is the default config with any port allowed, so refusals are for the address alone.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.AnyPort = true
	cfg.Timeout = 5e9
	cfg.ClientRate, cfg.AccountRate = 0, 0 // TestRoutesInTheApp counts in Redis
	return cfg
}

// server is the proxy's routes on a real echo server, with the envelope error handler, without
// sessions (the sign route's session check belongs to bff/auth and is tested with the app).
type server struct {
	p   *Proxy
	e   *echo.Echo
	srv *httptest.Server
}

// newRenderer is the renderer's image endpoint on a real HTTP server, with the development key;
// its URL.
func newRenderer(t testing.TB) string {
	t.Helper()
	h, err := proxyimage.New(proxyimage.Config{MaxBytes: 20 << 20, MaxPixels: 40_000_000, Concurrency: 2}, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(imageapi.Path, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// newServer serves the proxy with cfg, without Redis (so cfg's rates must be 0), calling a renderer
// of its own unless cfg names one.
func newServer(t testing.TB, cfg Config) *server {
	t.Helper()
	if cfg.RendererURL == DefaultConfig().RendererURL {
		cfg.RendererURL = newRenderer(t)
	}
	p, err := New(cfg, false, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	e := echo.New()
	e.HTTPErrorHandler = envelope.ErrorHandler(slog.New(slog.DiscardHandler))
	e.GET(Path, p.handleProxy)
	e.POST(SignPath, p.handleSign)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &server{p: p, e: e, srv: srv}
}

type answer struct {
	status int
	header http.Header
	body   []byte
	env    envelope.Response
}

// get fetches the proxy for raw with a token signed for it (whether or not SignedURL would).
func (s *server) get(t testing.TB, raw string, thumb bool, header ...string) answer {
	t.Helper()
	q := url.Values{"url": {raw}, "token": {s.p.signer.sign(raw)}}
	if thumb {
		q.Set("is_thumbnail", "1")
	}
	return s.getQuery(t, q.Encode(), header...)
}

func (s *server) getQuery(t testing.TB, query string, header ...string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.srv.URL+Path+"?"+query, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, header: resp.Header, body: b}
	if resp.Header.Get("Content-Type") == "application/json" || resp.StatusCode >= 400 {
		json.Unmarshal(b, &a.env)
	}
	return a
}

// dnsServer answers every A question with ip, and AAAA with nothing: a resolver entry the test
// controls. It answers the server's host:port, for Config.DNSServer.
func dnsServer(t *testing.T, ip netip.Addr) string {
	t.Helper()
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var m dnsmessage.Message
			if m.Unpack(buf[:n]) != nil || len(m.Questions) != 1 {
				continue
			}
			q := m.Questions[0]
			m.Header.Response, m.Header.Authoritative, m.Header.RecursionAvailable = true, true, true
			m.Answers = nil
			if q.Type == dnsmessage.TypeA {
				m.Answers = []dnsmessage.Resource{{
					Header: dnsmessage.ResourceHeader{Name: q.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: 60},
					Body:   &dnsmessage.AResource{A: ip.As4()},
				}}
			}
			out, err := m.Pack()
			if err == nil {
				pc.WriteTo(out, from)
			}
		}
	}()
	return pc.LocalAddr().String()
}

// withDNS is cfg resolving names with the DNS server at addr.
func withDNS(cfg Config, addr string) Config {
	cfg.DNSServer = addr
	return cfg
}

// inFlight counts the goroutines inside a singleflight call: the one doing the work and those
// waiting for it.
func inFlight() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return bytes.Count(buf[:n], []byte("golang.org/x/sync/singleflight.(*Group).Do("))
		}
		buf = make([]byte, 2*len(buf))
	}
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
