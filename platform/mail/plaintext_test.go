package mail

import "testing"

func TestPlainText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"paragraphs", "<h1>Hi</h1><p>one</p><p>two<br>three</p>", "Hi\none\ntwo\nthree"},
		{"link", `<p>See <a href="https://x.test/a?b=1&amp;c=2">our <b>sale</b></a></p>`, "See our sale (https://x.test/a?b=1&c=2)"},
		{"script gone", "<p>ok</p><script>alert(1)</script>", "ok"},
		{"entities", "<p>5 &lt; 6 &amp; 7</p>", "5 < 6 & 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlainText(tc.in); got != tc.want {
				t.Fatalf("PlainText = %q, want %q", got, tc.want)
			}
		})
	}
}
