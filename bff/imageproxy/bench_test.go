package imageproxy

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// BenchmarkCachedImage measures the proxy's throughput on a cached image: token check, cache hit
// and the write of the body, through the echo handler (no network).
func BenchmarkCachedImage(b *testing.B) {
	for _, tc := range []struct {
		name  string
		thumb bool
	}{{"original", false}, {"thumbnail", true}} {
		b.Run(tc.name, func(b *testing.B) {
			img := pngImage(b, 800, 600, true)
			up := newUpstream(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(img) }))
			s := newServer(b, allowUpstream(testConfig()))
			q := url.Values{"url": {up.URL + "/a.png"}, "token": {s.p.signer.sign(up.URL + "/a.png")}}
			if tc.thumb {
				q.Set("is_thumbnail", "1")
			}
			target := Path + "?" + q.Encode()
			warm := httptest.NewRecorder()
			s.e.ServeHTTP(warm, httptest.NewRequest(http.MethodGet, target, nil))
			if warm.Code != 200 {
				b.Fatalf("warm-up status %d", warm.Code)
			}
			b.SetBytes(int64(warm.Body.Len()))
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					w := httptest.NewRecorder()
					s.e.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
					if w.Code != 200 {
						b.Errorf("status %d", w.Code)
						return
					}
				}
			})
		})
	}
}
