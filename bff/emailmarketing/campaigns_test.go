package emailmarketing

import (
	"strings"
	"testing"
)

func TestSanitizeBody(t *testing.T) {
	tests := []struct {
		name, in      string
		want, absent  []string
		appendsFooter bool
	}{
		{"keeps the placeholder link", `<p><a href="{{unsubscribe_url}}">Leave</a></p>`,
			[]string{`href="{{unsubscribe_url}}"`}, nil, false},
		{"appends the footer when missing", `<p>Hi</p>`, []string{"<p>Hi</p>"}, nil, true},
		{"drops scripts, handlers and javascript links", `<p onclick="x()">Hi <a href="javascript:alert(1)">x</a></p><script>alert(1)</script>`,
			nil, []string{"onclick", "javascript:", "<script"}, true},
		{"keeps e-mail layout styles", `<table width="600"><tr><td style="color: #333; padding: 8px">Hi</td></tr></table>`,
			[]string{`width="600"`, `style="color: #333; padding: 8px"`}, nil, true},
		{"drops styles outside the list", `<p style="position: fixed">Hi</p>`, nil, []string{"position"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SanitizeBody(tt.in)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("SanitizeBody = %q, want it to contain %q", got, w)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(got, a) {
					t.Errorf("SanitizeBody = %q, want no %q", got, a)
				}
			}
			if footers := strings.Count(got, "You receive this e-mail"); footers != map[bool]int{true: 1, false: 0}[tt.appendsFooter] {
				t.Errorf("SanitizeBody = %q: %d footers, want appended = %v", got, footers, tt.appendsFooter)
			}
			if SanitizeBody(got) != got {
				t.Errorf("SanitizeBody is not stable on its own output: %q", got)
			}
		})
	}
}

func TestValidateAbandonedNeedsStepsOneToThree(t *testing.T) {
	ok := []AbandonedEmail{{Step: 1, DelayMinutes: 60}, {Step: 2, DelayMinutes: 60}, {Step: 3, DelayMinutes: 60}}
	if err := validateAbandoned(ok); err != nil {
		t.Fatalf("three disabled e-mails: %v", err)
	}
	dup := []AbandonedEmail{{Step: 1, DelayMinutes: 60}, {Step: 1, DelayMinutes: 60}, {Step: 3, DelayMinutes: 60}}
	if err := validateAbandoned(dup); err == nil || !strings.Contains(err.Error(), MsgAbandonedSteps) {
		t.Fatalf("steps 1, 1, 3 = %v, want %q", err, MsgAbandonedSteps)
	}
}
