package env

import (
	"strings"
	"testing"
	"time"
)

func TestReader(t *testing.T) {
	tests := []struct {
		name    string
		vars    map[string]string
		wantErr string
		check   func(t *testing.T, s string, n int, b bool, d time.Duration)
	}{
		{
			name: "unset keeps defaults",
			vars: map[string]string{},
			check: func(t *testing.T, s string, n int, b bool, d time.Duration) {
				if s != "def" || n != 7 || !b || d != time.Second {
					t.Fatalf("defaults changed: %q %d %v %v", s, n, b, d)
				}
			},
		},
		{
			name: "set values parse",
			vars: map[string]string{"S": " x ", "N": "42", "B": "off", "D": "250ms"},
			check: func(t *testing.T, s string, n int, b bool, d time.Duration) {
				if s != "x" || n != 42 || b || d != 250*time.Millisecond {
					t.Fatalf("got %q %d %v %v", s, n, b, d)
				}
			},
		},
		{name: "bad number names the variable", vars: map[string]string{"N": "many"}, wantErr: `N="many": want a whole number`},
		{name: "bad bool", vars: map[string]string{"B": "maybe"}, wantErr: `B="maybe"`},
		{name: "bad duration", vars: map[string]string{"D": "7"}, wantErr: `D="7"`},
		{name: "first error wins", vars: map[string]string{"N": "x", "D": "y"}, wantErr: `N="x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, n, b, d := "def", 7, true, time.Second
			r := NewReader(Map(tt.vars))
			r.String(&s, "S")
			r.Int(&n, "N")
			r.Bool(&b, "B")
			r.Duration(&d, "D")
			if tt.wantErr != "" {
				if r.Err() == nil || !strings.Contains(r.Err().Error(), tt.wantErr) {
					t.Fatalf("err = %v, want containing %q", r.Err(), tt.wantErr)
				}
				return
			}
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			tt.check(t, s, n, b, d)
		})
	}
}
