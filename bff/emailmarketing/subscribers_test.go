package emailmarketing

import (
	"strings"
	"testing"
)

func TestParseCSV(t *testing.T) {
	tests := []struct {
		name        string
		csv         string
		wantEmails  []string
		wantSkipped int
		wantRefusal string
	}{
		{"header variants and a BOM", "\ufeffE-mail,x\n", nil, 0, MsgNoEmailColumn},
		{"names by either spelling", "Email,First Name,last_name\na@x.test,Ana,Li\n", []string{"a@x.test"}, 0, ""},
		{"invalid and repeated addresses are skipped", "email\na@x.test\nnope\nA@X.test\n\"Bo <b@x.test>\"\n", []string{"a@x.test"}, 3, ""},
		{"short rows", "first_name,email\nAna\n", nil, 1, ""},
		{"empty file", "", nil, 0, MsgNoEmailColumn},
		{"broken quoting", "email\n\"a@x.test\n", nil, 0, MsgCSVUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, res, refusal := parseCSV(strings.NewReader(tt.csv))
			if refusal != tt.wantRefusal {
				t.Fatalf("refusal = %q, want %q", refusal, tt.wantRefusal)
			}
			var emails []string
			for _, r := range rows {
				emails = append(emails, r.email)
			}
			if strings.Join(emails, ",") != strings.Join(tt.wantEmails, ",") || res.Skipped != tt.wantSkipped {
				t.Fatalf("rows %v skipped %d, want %v skipped %d", emails, res.Skipped, tt.wantEmails, tt.wantSkipped)
			}
		})
	}
}

func FuzzParseCSV(f *testing.F) {
	f.Add("email,first_name\na@x.test,Ana\n")
	f.Add("\ufeffEmail;Name\n\"x\"\"y\"@z\n")
	f.Add("email\n\"unterminated\n")
	f.Fuzz(func(t *testing.T, in string) {
		rows, res, refusal := parseCSV(strings.NewReader(in))
		if refusal != "" && len(rows) > 0 {
			t.Fatalf("refused with %d rows", len(rows))
		}
		if len(res.Problems) > 10 || len(res.Problems) > res.Skipped {
			t.Fatalf("problems %d for %d skipped", len(res.Problems), res.Skipped)
		}
		seen := map[string]bool{}
		for _, r := range rows {
			k := strings.ToLower(r.email)
			if seen[k] || !strings.Contains(r.email, "@") {
				t.Fatalf("row %q repeated or not an address", r.email)
			}
			seen[k] = true
		}
	})
}
