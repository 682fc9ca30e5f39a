package notifications

import (
	"errors"
	"strings"
	"testing"
)

func TestSanitizeHTML(t *testing.T) {
	tests := []struct {
		name, in string
		want     string
		gone     []string
	}{
		{name: "formatting stays", in: `<p>Hi <strong>there</strong>, <em>see</em> <a href="/payouts">payouts</a></p>`,
			want: `<p>Hi <strong>there</strong>, <em>see</em> <a href="/payouts" rel="nofollow">payouts</a></p>`},
		{name: "script element", in: `<p>a</p><script>alert(1)</script>`, want: `<p>a</p>`},
		{name: "event handler attributes", in: `<img src="https://cdn.example.com/a.png" onerror="alert(1)"><p onclick="x()">b</p>`,
			gone: []string{"onerror", "onclick"}},
		{name: "javascript URL", in: `<a href="javascript:alert(1)">x</a>`, gone: []string{"javascript:"}},
		{name: "style and iframe", in: `<style>body{}</style><iframe src="https://evil.example"></iframe><p style="color:red">c</p>`,
			gone: []string{"<style", "<iframe", "style="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SanitizeHTML(tt.in)
			if tt.want != "" && got != tt.want {
				t.Fatalf("SanitizeHTML(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for _, bad := range tt.gone {
				if strings.Contains(got, bad) {
					t.Fatalf("SanitizeHTML(%q) = %q still holds %q", tt.in, got, bad)
				}
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name      string
		in        Notification
		wantField string
	}{
		{name: "defaults to type 1", in: Notification{Subject: "s"}},
		{name: "https link and path", in: Notification{Subject: "s", Image: "https://cdn.example.com/a.png", CallToActionLink: "/campaigns?x=1"}},
		{name: "blank subject", in: Notification{Subject: " \t"}, wantField: "subject"},
		{name: "long subject", in: Notification{Subject: strings.Repeat("é", MaxSubjectLength+1)}, wantField: "subject"},
		{name: "subject at the limit", in: Notification{Subject: strings.Repeat("é", MaxSubjectLength)}},
		{name: "long message", in: Notification{Subject: "s", Message: strings.Repeat("x", MaxMessageLength+1)}, wantField: "message"},
		{name: "type 3", in: Notification{Subject: "s", Type: 3}, wantField: "type"},
		{name: "javascript link", in: Notification{Subject: "s", CallToActionLink: "javascript:alert(1)"}, wantField: "call_to_action_link"},
		{name: "protocol-relative link", in: Notification{Subject: "s", CallToActionLink: "//evil.example"}, wantField: "call_to_action_link"},
		{name: "backslash link", in: Notification{Subject: "s", CallToActionLink: `/\evil.example`}, wantField: "call_to_action_link"},
		{name: "relative link without slash", in: Notification{Subject: "s", CallToActionLink: "campaigns"}, wantField: "call_to_action_link"},
		{name: "http without host", in: Notification{Subject: "s", CallToActionLink: "https:///x"}, wantField: "call_to_action_link"},
		{name: "data image", in: Notification{Subject: "s", Image: "data:image/png;base64,AAAA"}, wantField: "image"},
		{name: "over-long link", in: Notification{Subject: "s", Image: "https://a.example/" + strings.Repeat("x", MaxLinkLength)}, wantField: "image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.in
			err := normalize(&n)
			var invalid *InvalidError
			switch {
			case tt.wantField == "" && err != nil:
				t.Fatalf("normalize: %v", err)
			case tt.wantField == "" && n.Type != TypeRegular && tt.in.Type == 0:
				t.Fatalf("type = %d, want the default %d", n.Type, TypeRegular)
			case tt.wantField != "" && (!errors.As(err, &invalid) || invalid.Field != tt.wantField || !errors.Is(err, ErrInvalid)):
				t.Fatalf("normalize = %v, want an InvalidError for %s", err, tt.wantField)
			}
		})
	}
}
