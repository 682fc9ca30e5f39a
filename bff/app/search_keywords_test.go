package app

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

type keywordList struct {
	Data []struct {
		Query     string `json:"query"`
		Searches  int    `json:"searches"`
		NoResults int    `json:"no_results"`
		Results   int    `json:"results"`
	} `json:"data"`
	Total int `json:"total"`
}

func (s *stack) keywords(token, query string) (keywordList, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/search-keywords?"+query, token, nil)
	var out keywordList
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out, r
}

// TestSearchKeywords: the counts the storefront wrote per store and hour add up per query over the
// range and the stores asked for: the top queries by searches, the queries with no results by how
// often they found nothing (with what the latest search found); another seller's stores and hours
// outside the range do not count; bad filters are named.
func TestSearchKeywords(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	sellerID, veteranID := s.userID("seller@example.com"), s.userID("veteran@example.com")
	var demo, second, theirs int64
	s.app.DB.Get(&demo, `SELECT id FROM stores WHERE slug = 'demo'`)
	if err := s.app.DB.Get(&second, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Second', 'second.example', 'second') RETURNING id`, sellerID); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&theirs, `INSERT INTO stores (owner_id, name, domain, slug) VALUES ($1, 'Vic', 'vic.example', 'vic') RETURNING id`, veteranID); err != nil {
		t.Fatal(err)
	}
	hour := time.Now().UTC().Truncate(time.Hour)
	add := func(store int64, at time.Time, query string, searches, none, results int) {
		s.app.DB.MustExec(`INSERT INTO search_keywords (store_id, hour, query, searches, no_results, results) VALUES ($1, $2, $3, $4, $5, $6)`,
			store, at, query, searches, none, results)
	}
	add(demo, hour, "cat mug", 5, 0, 3)
	add(demo, hour.Add(-time.Hour), "cat mug", 2, 0, 4)
	add(second, hour, "cat mug", 1, 0, 2)
	add(demo, hour, "unicorn", 3, 3, 0)
	add(second, hour.Add(-time.Hour), "hoodie", 4, 4, 0)
	add(demo, hour, "hoodie", 1, 0, 2) // found something since
	add(demo, hour.AddDate(0, 0, -100), "old", 50, 50, 0)
	add(theirs, hour, "cat mug", 100, 0, 1)

	type row struct {
		q           string
		n, none, in int
	}
	for _, tc := range []struct {
		query string
		want  []row
	}{
		{"date_range=last_7_days", []row{{"cat mug", 8, 0, 3}, {"hoodie", 5, 4, 2}, {"unicorn", 3, 3, 0}}},
		{"date_range=last_7_days&kind=no_results", []row{{"hoodie", 5, 4, 2}, {"unicorn", 3, 3, 0}}},
		{fmt.Sprintf("date_range=last_7_days&store_id=%d", second), []row{{"hoodie", 4, 4, 0}, {"cat mug", 1, 0, 2}}},
		{"", []row{{"old", 50, 50, 0}, {"cat mug", 8, 0, 3}, {"hoodie", 5, 4, 2}, {"unicorn", 3, 3, 0}}},
		{"date_range=custom&from=2020-01-01&to=2020-12-31&kind=no_results", nil},
	} {
		t.Run(tc.query, func(t *testing.T) {
			list, r := s.keywords(seller, tc.query)
			if r.status != 200 || list.Total != len(tc.want) {
				t.Fatalf("%d %s", r.status, r.raw)
			}
			for i, w := range tc.want {
				g := list.Data[i]
				if (row{g.Query, g.Searches, g.NoResults, g.Results}) != w {
					t.Fatalf("row %d: %+v, want %+v", i, g, w)
				}
			}
		})
	}
	r := s.do("GET", "/api/seller/search-keywords/summary?date_range=last_7_days", seller, nil)
	if sum := r.body.Data.(map[string]any); r.status != 200 || sum["searches"] != 16.0 || sum["queries"] != 3.0 || sum["no_results"] != 7.0 {
		t.Fatalf("summary %d %s", r.status, r.raw)
	}
	if list, _ := s.keywords(veteran, "date_range=last_7_days"); list.Total != 1 || list.Data[0].Searches != 100 {
		t.Fatalf("another seller's keywords: %+v", list)
	}
	for _, tc := range []struct{ query, field string }{{"kind=worst", "kind"}, {"store_id=x", "store_id"}, {"date_range=ages", "date_range"}, {"from=2026-13-01", "from"}} {
		if _, r := s.keywords(seller, tc.query); r.status != 422 || r.body.Errors[0].Field != tc.field {
			t.Errorf("%s: %d %s", tc.query, r.status, r.raw)
		}
	}
	// A team member limited to the second store sees its searches only.
	s.app.DB.MustExec(`UPDATE team_members SET store_ids = $1::bigint[] WHERE member_id = $2`, fmt.Sprintf("{%d}", second), s.userID("support@example.com"))
	team := s.switchInto("support@example.com")
	if list, r := s.keywords(team, "date_range=last_7_days"); r.status != 200 || list.Total != 2 || list.Data[0].Query != "hoodie" || list.Data[0].Searches != 4 {
		t.Fatalf("the limited team member: %d %+v", r.status, list)
	}
}
