package richtext

import (
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"formatting stays", `<h2>Hi</h2><p><strong>a</strong> <em>b</em> <u>c</u> <s>d</s></p><ul><li><p>x</p></li></ul><blockquote><p>q</p></blockquote><hr>`,
			`<h2>Hi</h2><p><strong>a</strong> <em>b</em> <u>c</u> <s>d</s></p><ul><li><p>x</p></li></ul><blockquote><p>q</p></blockquote><hr>`},
		{"script", `<p>Hi</p><script>alert(1)</script>`, `<p>Hi</p>`},
		{"event handler", `<p onclick="alert(1)">Hi</p><img src="https://example.com/a.png" onerror="alert(1)">`, `<p>Hi</p><img src="https://example.com/a.png">`},
		{"javascript link", `<a href="javascript:alert(1)">x</a>`, `x`},
		{"style and frame", `<p style="position:fixed">x</p><iframe src="https://example.com"></iframe><style>p{}</style>`, `<p>x</p>`},
		{"outside link", `<a href="https://example.com/" target="_self">x</a>`, `<a href="https://example.com/" rel="nofollow noreferrer noopener" target="_blank">x</a>`},
		{"link in the store", `<a href="/p/about">About</a>`, `<a href="/p/about" rel="nofollow">About</a>`},
		{"empty paragraphs at the end", `<h2>Hi</h2><p></p><p>x</p><p></p><p><br></p> `, `<h2>Hi</h2><p></p><p>x</p>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	body := `<h2>Autumn</h2><p>Our new <strong>hoodies</strong> &amp; mugs are here.</p><script>x()</script><p>More soon</p>`
	if got := Summary(body, 200); got != "Autumn Our new hoodies & mugs are here. More soon" {
		t.Errorf("Summary = %q", got)
	}
	if got := Summary(body, 20); got != "Autumn Our new…" || len([]rune(got)) > 20 {
		t.Errorf("cut Summary = %q", got)
	}
	if got := Summary("<p>"+strings.Repeat("x", 30)+"</p>", 10); got != strings.Repeat("x", 9)+"…" {
		t.Errorf("one long word = %q", got)
	}
}
