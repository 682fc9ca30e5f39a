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

func TestCheckDue(t *testing.T) {
	db, _ := testinfra.Postgres(t)
	dns := testinfra.DNS(t)
	ctx := context.Background()
	var store int64
	err := db.GetContext(ctx, &store, `
WITH u AS (INSERT INTO users (name, email, password_hash, roles) VALUES ('S', 's@example.com', 'x', '{seller}') RETURNING id)
INSERT INTO stores (owner_id, name, domain) SELECT id, 'Shop', 'shop.pressroom.local' FROM u RETURNING id`)
	if err != nil {
		t.Fatal(err)
	}
	add := func(domain, created, checked string, verified bool) {
		t.Helper()
		_, err := db.ExecContext(ctx, `INSERT INTO store_domains (store_id, domain, created_at, checked_at, verified_at)
VALUES ($1, $2, now() - $3::interval, now() - $4::interval, CASE WHEN $5 THEN now() - interval '3 days' END)`, store, domain, created, checked, verified)
		if err != nil {
			t.Fatal(err)
		}
	}
	add("new.example", "1 minute", "100 years", false)  // never really checked: due
	add("fresh.example", "1 hour", "10 seconds", false) // checked a moment ago: not due
	add("abandoned.example", "8 days", "1 hour", false) // a week passed: only the seller checks it now
	add("kept.example", "30 days", "25 hours", true)    // verified, a day since the last check: due
	add("lost.example", "30 days", "25 hours", true)    // the same, but its record is gone
	add("recent.example", "30 days", "1 hour", true)    // verified and checked lately: not due
	add("trusted.example", "30 days", "0", true)        // verified without a check: left alone
	db.MustExecContext(ctx, `UPDATE store_domains SET checked_at = NULL WHERE domain IN ('new.example', 'trusted.example')`)
	var keptToken string
	if err := db.GetContext(ctx, &keptToken, `SELECT token FROM store_domains WHERE domain = 'kept.example'`); err != nil {
		t.Fatal(err)
	}
	dns.SetTXT(RecordName("kept.example"), keptToken)

	c := checker(t, dns.Addr, db)
	n, err := c.CheckDue(ctx)
	if err != nil || n != 3 {
		t.Fatalf("CheckDue = %d, %v; want 3 domains checked", n, err)
	}
	var got []struct {
		Domain string `db:"domain"`
		Status string `db:"status"`
	}
	if err := db.SelectContext(ctx, &got, `SELECT domain, status FROM store_domains ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"new.example": "failed", "fresh.example": "pending", "abandoned.example": "pending",
		"kept.example": "verified", "lost.example": "failed", "recent.example": "verified",
		"trusted.example": "verified"}
	for _, g := range got {
		if want[g.Domain] != g.Status {
			t.Errorf("%s: %s, want %s", g.Domain, g.Status, want[g.Domain])
		}
	}
	if n, err := c.CheckDue(ctx); err != nil || n != 0 {
		t.Fatalf("second pass checked %d, %v; want none due", n, err)
	}
}

// BenchmarkLookup is one verification lookup, over UDP on loopback, against testinfra's server.
func BenchmarkLookup(b *testing.B) {
	dns := testinfra.DNS(b)
	const token = "0123456789abcdef0123456789abcdef"
	dns.SetTXT(RecordName("shop.example.test"), token)
	cfg := DefaultConfig()
	cfg.Resolver = dns.Addr
	c, err := NewChecker(cfg, &sqlx.DB{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if err := c.Lookup(ctx, "shop.example.test", token); err != nil {
			b.Fatal(err)
		}
	}
}
