package customdomain

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/testinfra"
)

func checker(t *testing.T, resolver string, db *sqlx.DB) *Checker {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Resolver = resolver
	cfg.Timeout = 2 * time.Second
	c, err := NewChecker(cfg, db)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// silentResolver is a UDP port that takes queries and never answers.
func silentResolver(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	return pc.LocalAddr().String()
}

func TestLookup(t *testing.T) {
	dns := testinfra.DNS(t)
	const token = "0123456789abcdef0123456789abcdef"
	long := strings.Repeat("x", 300) + token
	dns.SetTXT("_pressroom-verify.good.example", "v=spf1 -all", token)
	dns.SetTXT("_pressroom-verify.wrong.example", "something-else")
	dns.SetTXT("_pressroom-verify.long.example", long)
	c := checker(t, dns.Addr, &sqlx.DB{})
	ctx := context.Background()
	cases := []struct {
		name, domain, token string
		want                string // "" for found, else the start of the Failure
	}{
		{"one of several records holds it", "good.example", token, ""},
		{"a value longer than one character-string", "long.example", long, ""},
		{"no record", "missing.example", token, "No TXT record was found at _pressroom-verify.missing.example."},
		{"another value", "wrong.example", token, "The TXT record at _pressroom-verify.wrong.example does not hold"},
		{"another domain's token", "good.example", "ffffffffffffffffffffffffffffffff", "The TXT record at"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Lookup(ctx, tc.domain, tc.token)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Lookup: %v, want found", err)
				}
				return
			}
			if _, ok := errors.AsType[Failure](err); !ok || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("Lookup: %v (%T), want a Failure starting %q", err, err, tc.want)
			}
		})
	}
	t.Run("a resolver that does not answer is no proof either way", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.Resolver, cfg.Timeout = silentResolver(t), 300*time.Millisecond
		quiet, err := NewChecker(cfg, &sqlx.DB{})
		if err != nil {
			t.Fatal(err)
		}
		err = quiet.Lookup(ctx, "good.example", token)
		if _, ok := errors.AsType[Failure](err); err == nil || ok {
			t.Fatalf("Lookup: %v (%T), want a lookup error that is not a Failure", err, err)
		}
		if !strings.Contains(err.Error(), "The DNS lookup of _pressroom-verify.good.example failed") {
			t.Fatalf("message %q", err)
		}
	})
}

func TestCheckRecordsTheOutcome(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	dns := testinfra.DNS(t)
	ctx := context.Background()
	var id int64
	var token string
	err := db.QueryRowxContext(ctx, `
WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id),
     s AS (INSERT INTO stores (owner_id, name, domain) SELECT id, 'Shop', 'shop.pressroom.local' FROM u RETURNING id)
INSERT INTO store_domains (store_id, domain) SELECT id, 'shop.example.test' FROM s RETURNING id, token`).Scan(&id, &token)
	if err != nil {
		t.Fatal(err)
	}
	c := checker(t, dns.Addr, db)
	verifiedAt := func() *time.Time {
		var at *time.Time
		if err := db.GetContext(ctx, &at, `SELECT verified_at FROM store_domains WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return at
	}
	step := func(name, wantStatus, wantErr string) {
		t.Helper()
		st, err := c.Check(ctx, id)
		if err != nil {
			t.Fatalf("%s: Check: %v", name, err)
		}
		if st.Status != wantStatus || !strings.HasPrefix(st.Error, wantErr) {
			t.Fatalf("%s: got %+v, want status %s, error starting %q", name, st, wantStatus, wantErr)
		}
	}
	step("no record yet", "failed", "No TXT record was found at _pressroom-verify.shop.example.test.")
	if verifiedAt() != nil {
		t.Fatal("verified without a record")
	}
	dns.SetTXT("_pressroom-verify.shop.example.test", token)
	step("record created", "verified", "")
	first := verifiedAt()
	if first == nil {
		t.Fatal("verified_at not set")
	}
	step("checked again", "verified", "")
	if again := verifiedAt(); again == nil || !again.Equal(*first) {
		t.Fatalf("verified_at moved from %v to %v", first, again)
	}

	quiet := checker(t, silentResolver(t), db)
	quiet.cfg.Timeout = 300 * time.Millisecond
	st, err := quiet.Check(ctx, id)
	if err != nil || st.Status != "verified" || !strings.Contains(st.Error, "failed") {
		t.Fatalf("resolver down: %+v, %v; want still verified, with the lookup's error", st, err)
	}

	dns.SetTXT("_pressroom-verify.shop.example.test", "someone-else")
	step("record changed", "failed", "The TXT record at _pressroom-verify.shop.example.test does not hold")
	if verifiedAt() != nil {
		t.Fatal("still verified after the record changed")
	}
	if _, err := c.Check(ctx, id+1000); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Check of a missing domain: %v, want ErrNotFound", err)
	}
}
