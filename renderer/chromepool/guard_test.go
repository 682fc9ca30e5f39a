package chromepool

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// hostilePage stands in for a compromised 3D page: it tries file://, the cloud metadata address, another
// loopback port and an outside host, then paints a square green when none of them answered and its own
// origin did (red otherwise), so the mockup tells what the page got.
const hostilePage = `<!doctype html><html><body style="margin:0"><script>
window.renderMockup3d = async (job) => {
  const probes = ['file:///etc/passwd', 'http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:OTHER/secret',
    'http://[::1]:OTHER/secret', 'https://example.com/'];
  let got = 0;
  for (const u of probes) {
    try { await fetch(u, { mode: 'no-cors' }); got++; } catch (e) {}
  }
  await new Promise((done) => {
    const img = new Image();
    img.onload = () => { got++; done(); };
    img.onerror = done;
    img.src = 'http://127.0.0.1:OTHER/pixel.png';
  });
  let own = false;
  try { own = (await fetch(job.design)).ok; } catch (e) {}
  const c = document.createElement('canvas');
  c.width = job.width; c.height = job.height;
  document.body.appendChild(c);
  const g = c.getContext('2d');
  g.fillStyle = '#eeeeee'; g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = got === 0 && own ? '#00ff00' : '#ff0000'; g.fillRect(100, 100, 200, 200);
  return c.toDataURL('image/png');
};
</script></body></html>`

// TestForeignRequestsAreBlocked renders a page that reaches for file://, private addresses and other
// hosts: it gets nothing, the pool reports each blocked URL, and the other local port sees no connection.
func TestForeignRequestsAreBlocked(t *testing.T) {
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var connections atomic.Int64
	go func() {
		for {
			c, err := other.Accept()
			if err != nil {
				return
			}
			connections.Add(1)
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(other.Addr().String())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mockup3d.html"), []byte(strings.ReplaceAll(hostilePage, "OTHER", port)), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var blocked []string
	cfg := DefaultConfig()
	cfg.Browsers = 1
	cfg.OnBlocked = func(u string) {
		mu.Lock()
		blocked = append(blocked, u)
		mu.Unlock()
	}
	p, _ := startPool(t, cfg, dir, nil)
	out, err := p.Render(context.Background(), Job{Model: "mug", Design: designPNG(t)})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out.PNG))
	if err != nil {
		t.Fatal(err)
	}
	if got := color.RGBAModel.Convert(img.At(200, 200)).(color.RGBA); got != (color.RGBA{0, 255, 0, 255}) {
		t.Errorf("probe square is %v; want green: the page reached something outside its origin, or not its own design", got)
	}
	if n := connections.Load(); n != 0 {
		t.Errorf("the other local port got %d connections; want 0", n)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:" + port + "/secret",
		"http://[::1]:" + port + "/secret", "https://example.com/", "http://127.0.0.1:" + port + "/pixel.png"} {
		found := false
		for _, u := range blocked {
			found = found || u == want
		}
		if !found {
			t.Errorf("%s was not reported blocked; blocked: %v", want, blocked)
		}
	}
}

func TestAllowed(t *testing.T) {
	const origin = "http://127.0.0.1:8081"
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"http://127.0.0.1:8081/mockup3d.html", true},
		{"http://127.0.0.1:8081/assets/x.js", true},
		{"blob:http://127.0.0.1:8081/0b1c", true},
		{"data:image/png;base64,AAAA", true},
		{"http://127.0.0.1:8082/", false},
		{"http://localhost:8081/", false},
		{"https://127.0.0.1:8081/", false},
		{"http://user@127.0.0.1:8081/", false},
		{"file:///etc/passwd", false},
		{"blob:http://evil.example/0b1c", false},
		{"http://169.254.169.254/", false},
		{"http://127.0.0.1:8081.evil.example/", false},
	} {
		t.Run(tc.url, func(t *testing.T) {
			if got := allowed(tc.url, origin); got != tc.want {
				t.Errorf("allowed(%q) = %v; want %v", tc.url, got, tc.want)
			}
		})
	}
}

func TestBlank(t *testing.T) {
	grey := color.RGBA{0xf3, 0xf3, 0xf1, 0xff}
	for _, tc := range []struct {
		name string
		img  func() draw.Image
	}{
		{"RGBA", func() draw.Image { return image.NewRGBA(image.Rect(0, 0, 40, 30)) }},
		{"NRGBA", func() draw.Image { return image.NewNRGBA(image.Rect(0, 0, 40, 30)) }},
		{"Gray", func() draw.Image { return image.NewGray(image.Rect(0, 0, 40, 30)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := tc.img()
			draw.Draw(img, img.Bounds(), image.NewUniform(grey), image.Point{}, draw.Src)
			if !blank(img) {
				t.Error("a frame of one colour is not blank")
			}
			img.Set(39, 29, color.Black)
			if blank(img) {
				t.Error("a frame with a dark last pixel is blank")
			}
		})
	}
}
