package shop

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestSearch: the store's search finds campaigns on sale by their name or a product's, in any case,
// escapes what was typed, and counts every search by its normalized words, with whether it found
// anything, written in one batch when the counts are flushed.
func TestSearch(t *testing.T) {
	f := setup(t)
	c := client(t)
	base := f.srv.URL + "/s/demo/search?q="
	for _, tc := range []struct {
		name, q string
		found   bool
	}{
		{"the campaign's name", "CATS", true},
		{"spaces and case", "  cats\t ", true},
		{"a product's name", "mug", true},
		{"two words", "cats mug", true},
		{"nothing", "zebra", false},
		{"markup, as the campaign's name has it", evil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := get(t, c, base+url.QueryEscape(tc.q))
			if res.StatusCode != 200 || res.Header.Get("Cache-Control") != cachePrivate || strings.Contains(body, evil) {
				t.Fatalf("%d %q\n%s", res.StatusCode, res.Header.Get("Cache-Control"), body)
			}
			if got := strings.Contains(body, `href="/s/demo/c/`+itoa(f.campaign)+`"`); got != tc.found {
				t.Fatalf("found %v, want %v\n%s", got, tc.found, body)
			}
		})
	}
	if _, body := get(t, c, base+"%20"); !strings.Contains(body, "Type what you are looking for") {
		t.Fatalf("an empty search\n%s", body)
	}
	// Nothing is written until the counts are flushed; then one row per query and hour.
	var rows int
	f.db.Get(&rows, `SELECT count(*) FROM search_keywords`)
	if rows != 0 {
		t.Fatalf("%d rows written before the flush", rows)
	}
	if err := f.shop.keywords.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Query     string `db:"query"`
		Searches  int    `db:"searches"`
		NoResults int    `db:"no_results"`
	}
	if err := f.db.Select(&got, `SELECT query, searches, no_results FROM search_keywords WHERE store_id = $1 ORDER BY query`, f.storeID); err != nil {
		t.Fatal(err)
	}
	want := []string{"<script>alert(1)</script> 1 0", "cats 2 0", "cats mug 1 0", "mug 1 0", "zebra 1 1"}
	var have []string
	for _, g := range got {
		have = append(have, g.Query+" "+itoa(int64(g.Searches))+" "+itoa(int64(g.NoResults)))
	}
	if strings.Join(have, "|") != strings.Join(want, "|") {
		t.Fatalf("keywords %q, want %q", have, want)
	}
	// A second flush adds to the same rows.
	get(t, c, base+"Zebra")
	if err := f.shop.keywords.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var zebra int
	f.db.Get(&zebra, `SELECT searches FROM search_keywords WHERE query = 'zebra'`)
	if zebra != 2 {
		t.Fatalf("zebra counted %d times", zebra)
	}
}

// TestKeywordCounts: counting takes no database; concurrent searches are all counted; the counts
// held are bounded (a new query past the bound is dropped, known ones keep counting); counts a
// flush could not write wait for the next one.
func TestKeywordCounts(t *testing.T) {
	f := setup(t)
	k := newKeywords(f.db, slog.New(slog.DiscardHandler), 0)
	k.maxKeys = 3
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() { k.record(f.storeID, []string{"a", "b", "c"}[i%3], i%2) })
	}
	wg.Wait()
	k.record(f.storeID, "d", 1) // a fourth query: over the bound
	k.record(f.storeID, "a", 0)
	if len(k.pending) != 3 || k.dropped != 1 {
		t.Fatalf("%d queries held, %d dropped", len(k.pending), k.dropped)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := k.flush(ctx); err == nil {
		t.Fatal("a flush without a database succeeded")
	}
	if len(k.pending) != 3 {
		t.Fatalf("%d queries kept after a failed flush", len(k.pending))
	}
	if err := k.flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	var total, none int
	f.db.QueryRow(`SELECT sum(searches), sum(no_results) FROM search_keywords`).Scan(&total, &none)
	if total != 201 || none != 101 {
		t.Fatalf("%d searches, %d without results; want 201 and 101", total, none)
	}
}

// TestSearchIsLimited: searches count against the client's limit like posts, so one client cannot
// run the store's queries or fill its keywords without end.
func TestSearchIsLimited(t *testing.T) {
	f := setup(t)
	cfg := DefaultConfig()
	cfg.PostsPerMinute = 3
	h, err := New(cfg, Deps{DB: f.db, Blobs: f.blobs, Checkout: f.checkout, Gateways: f.gateways, Mailer: f.mailer, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	c := client(t)
	for i := range 3 {
		if res, _ := get(t, c, srv.URL+"/s/demo/search?q=cats"); res.StatusCode != 200 {
			t.Fatalf("search %d: %d", i+1, res.StatusCode)
		}
	}
	if res, _ := get(t, c, srv.URL+"/s/demo/search?q=cats"); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a fourth search: %d", res.StatusCode)
	}
	if res, _ := get(t, c, srv.URL+"/s/demo/"); res.StatusCode != 200 {
		t.Fatalf("pages are not limited: %d", res.StatusCode)
	}
}

// TestNormalizeQuery: what two buyers mean the same is counted as one.
func TestNormalizeQuery(t *testing.T) {
	for in, want := range map[string]string{
		"  Cat  MUG ":               "cat mug",
		"cat\tmug\n":                "cat mug",
		"ÉTÉ":                       "été",
		"a\x00b":                    "a b",
		"\u202ecat":                 "cat",
		strings.Repeat("long ", 30): strings.TrimSpace(strings.Repeat("long ", 20)),
		strings.Repeat("x", 150):    strings.Repeat("x", 100),
		"":                          "",
		"   ":                       "",
	} {
		if got := normalizeQuery(in); got != want {
			t.Errorf("normalizeQuery(%q) = %q, want %q", in, got, want)
		}
	}
}
