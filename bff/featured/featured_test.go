package featured

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pressroom/pressroom/bff/envelope"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name        string
		article     Article
		want        []envelope.FieldError
		wantContent string
	}{
		{"a modal article with a site banner", Article{Subject: " News ", Banner: "/featured/a.svg", Content: "<p>hi</p>"}, nil, "<p>hi</p>"},
		{"a link article", Article{Subject: "News", Banner: "https://cdn.example.com/a.png", Link: "https://example.com/post"}, nil, ""},
		{"scripts and handlers are dropped", Article{Subject: "News", Content: `<p onclick="x()">hi</p><script>alert(1)</script>`}, nil, "<p>hi</p>"},
		{"no subject", Article{Subject: "  "}, []envelope.FieldError{{Field: "subject", Message: MsgSubjectRequired}}, ""},
		{"a protocol-relative banner and a path link", Article{Subject: "x", Banner: "//evil.example/a.png", Link: "/campaigns"},
			[]envelope.FieldError{{Field: "banner", Message: MsgBadBanner}, {Field: "link", Message: MsgBadLink}}, ""},
		{"a javascript link", Article{Subject: "x", Link: "javascript:alert(1)"}, []envelope.FieldError{{Field: "link", Message: MsgBadLink}}, ""},
		{"a long subject", Article{Subject: strings.Repeat("a", MaxSubjectLength+1)}, []envelope.FieldError{{Field: "subject", Message: "The subject may not be longer than 200 characters."}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Check(&tc.article)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("Check (-want +got):\n%s", diff)
			}
			if tc.want == nil && tc.article.Content != tc.wantContent {
				t.Fatalf("content = %q, want %q", tc.article.Content, tc.wantContent)
			}
		})
	}
}
