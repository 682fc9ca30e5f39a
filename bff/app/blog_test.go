package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pressroom/pressroom/bff/blog"
)

type postReply struct {
	ID          int64   `json:"id"`
	StoreID     int64   `json:"store_id"`
	Slug        string  `json:"slug"`
	Body        string  `json:"body"`
	CoverURL    string  `json:"cover_url"`
	Status      string  `json:"status"`
	State       string  `json:"state"`
	CategoryIDs []int64 `json:"category_ids"`
}

func postOf(t *testing.T, r reply) postReply {
	t.Helper()
	var out struct{ Data postReply }
	if err := json.Unmarshal(r.raw, &out); err != nil {
		t.Fatal(err)
	}
	return out.Data
}

func (s *stack) postList(token, query string) ([]postReply, int, reply) {
	s.t.Helper()
	r := s.do("GET", "/api/seller/blog/posts"+query, token, nil)
	var out struct {
		Data  []postReply `json:"data"`
		Total int         `json:"total"`
	}
	if r.status == 200 {
		if err := json.Unmarshal(r.raw, &out); err != nil {
			s.t.Fatal(err)
		}
	}
	return out.Data, out.Total, r
}

// upload records a checked upload of owner's, as the renderer leaves it.
func (s *stack) upload(owner int64, key, status, contentType string) {
	s.t.Helper()
	if _, err := s.app.DB.Exec(`INSERT INTO uploads (owner_id, blob_key, file_name, status, content_type) VALUES ($1, $2, 'cover.png', $3, $4)`,
		owner, key, status, contentType); err != nil {
		s.t.Fatal(err)
	}
}

// TestBlogCategories: a category is checked field by field, its address is unique in the account
// (not across accounts) and checked while typed; another seller's ids answer 404.
func TestBlogCategories(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	good := func(change map[string]any) map[string]any {
		in := map[string]any{"name": "News", "slug": "news", "description": "What is new."}
		for k, v := range change {
			in[k] = v
		}
		return in
	}
	for _, tc := range []struct {
		name  string
		in    map[string]any
		field string
		msg   string
	}{
		{"no name", good(map[string]any{"name": ""}), "name", blog.MsgCategoryName},
		{"long name", good(map[string]any{"name": strings.Repeat("n", 101)}), "name", "The name may not be longer than 100 characters."},
		{"bad address", good(map[string]any{"slug": "new stuff"}), "slug", blog.MsgSlug},
		{"long description", good(map[string]any{"description": strings.Repeat("d", 1001)}), "description", "The description may not be longer than 1000 characters."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/blog/categories", seller, tc.in)
			if r.status != 422 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	r := s.do("POST", "/api/seller/blog/categories", seller, good(nil))
	if r.status != 201 || r.body.Message != blog.MsgCategoryCreated {
		t.Fatalf("create %d %s", r.status, r.raw)
	}
	id := int64(r.body.Data.(map[string]any)["id"].(float64))
	path := fmt.Sprintf("/api/seller/blog/categories/%d", id)
	if r := s.do("POST", "/api/seller/blog/categories", seller, good(map[string]any{"name": "Other"})); r.status != 422 ||
		r.body.Errors[0].Field != "slug" || r.body.Errors[0].Message != blog.MsgCategorySlugTaken {
		t.Fatalf("same address: %d %s", r.status, r.raw)
	}
	avail := func(token, query string) map[string]any {
		return s.do("GET", "/api/seller/blog/categories/slug-availability?"+query, token, nil).body.Data.(map[string]any)
	}
	if d := avail(seller, "slug=news"); d["available"] != false || d["message"] != blog.MsgCategorySlugTaken {
		t.Errorf("taken %v", d)
	}
	if d := avail(seller, fmt.Sprintf("slug=news&except=%d", id)); d["available"] != true {
		t.Errorf("its own %v", d)
	}
	if d := avail(veteran, "slug=news"); d["available"] != true {
		t.Errorf("another seller's %v", d)
	}
	if r := s.do("POST", "/api/seller/blog/categories", veteran, good(nil)); r.status != 201 {
		t.Fatalf("another seller, same address: %d %s", r.status, r.raw)
	}
	for _, method := range []string{"GET", "PUT", "DELETE"} {
		if r := s.do(method, path, veteran, good(nil)); r.status != 404 || r.body.Message != blog.MsgCategoryNotFound {
			t.Errorf("%s by another seller: %d %s", method, r.status, r.raw)
		}
	}
	if r := s.do("PUT", path, seller, good(map[string]any{"name": "Newsroom"})); r.status != 200 || r.body.Data.(map[string]any)["name"] != "Newsroom" {
		t.Fatalf("update %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/seller/blog/categories?q=room", seller, nil)
	var list struct {
		Total int `json:"total"`
	}
	if err := json.Unmarshal(r.raw, &list); err != nil || list.Total != 1 {
		t.Errorf("search %s", r.raw)
	}
	if r := s.do("DELETE", path, seller, nil); r.status != 200 {
		t.Fatalf("delete %d %s", r.status, r.raw)
	}
}

// TestBlogPosts: a post is checked field by field (the store and the categories must be the
// seller's, the cover one of the seller's checked images), its body loses its scripts, its address
// is unique in its store; a new cover queues its storefront size once; a publish date to come makes
// it scheduled; another seller's ids, and a team member's stores outside their list, answer 404.
func TestBlogPosts(t *testing.T) {
	s := newStack(t)
	seller := s.login("seller", "seller@example.com")
	veteran := s.login("seller", "veteran@example.com")
	sellerID, veteranID := s.userID("seller@example.com"), s.userID("veteran@example.com")
	demo, second, foreign := s.storesOfSellers()
	var news, theirs int64
	if err := s.app.DB.Get(&news, `INSERT INTO blog_categories (seller_id, name, slug) VALUES ($1, 'News', 'news') RETURNING id`, sellerID); err != nil {
		t.Fatal(err)
	}
	if err := s.app.DB.Get(&theirs, `INSERT INTO blog_categories (seller_id, name, slug) VALUES ($1, 'Theirs', 'theirs') RETURNING id`, veteranID); err != nil {
		t.Fatal(err)
	}
	cover := fmt.Sprintf("u/%d/blog/cover.png", sellerID)
	s.upload(sellerID, cover, "ready", "image/png")
	s.upload(sellerID, fmt.Sprintf("u/%d/blog/pending.png", sellerID), "pending", "")
	s.upload(sellerID, fmt.Sprintf("u/%d/blog/list.csv", sellerID), "ready", "text/csv")
	s.upload(veteranID, fmt.Sprintf("u/%d/blog/theirs.png", veteranID), "ready", "image/png")
	good := func(change map[string]any) map[string]any {
		in := map[string]any{"store_id": demo, "title": "Autumn drop", "slug": "autumn-drop", "excerpt": "New hoodies.",
			"body":         `<p>Warm <strong>hoodies</strong></p><img src=x onerror="steal()"><script>alert(1)</script>`,
			"category_ids": []int64{news}, "status": "draft"}
		for k, v := range change {
			in[k] = v
		}
		return in
	}
	many := make([]int64, blog.MaxCategories+1)
	for i := range many {
		many[i] = int64(i + 1)
	}
	for _, tc := range []struct {
		name  string
		in    map[string]any
		field string
		msg   string
	}{
		{"no store", good(map[string]any{"store_id": nil}), "store_id", blog.MsgStore},
		{"another seller's store", good(map[string]any{"store_id": foreign}), "store_id", blog.MsgStore},
		{"no title", good(map[string]any{"title": " "}), "title", blog.MsgTitle},
		{"long title", good(map[string]any{"title": strings.Repeat("t", 201)}), "title", "The title may not be longer than 200 characters."},
		{"bad address", good(map[string]any{"slug": "Autumn Drop!"}), "slug", blog.MsgSlug},
		{"long excerpt", good(map[string]any{"excerpt": strings.Repeat("e", 501)}), "excerpt", "The excerpt may not be longer than 500 characters."},
		{"long body", good(map[string]any{"body": strings.Repeat("b", 100_001)}), "body", "The body may not be longer than 100000 characters."},
		{"cover not an upload", good(map[string]any{"cover_key": "u/1/../../etc/passwd"}), "cover_key", blog.MsgCover},
		{"cover still being checked", good(map[string]any{"cover_key": fmt.Sprintf("u/%d/blog/pending.png", sellerID)}), "cover_key", blog.MsgCover},
		{"cover not an image", good(map[string]any{"cover_key": fmt.Sprintf("u/%d/blog/list.csv", sellerID)}), "cover_key", blog.MsgCover},
		{"another seller's cover", good(map[string]any{"cover_key": fmt.Sprintf("u/%d/blog/theirs.png", veteranID)}), "cover_key", blog.MsgCover},
		{"another seller's category", good(map[string]any{"category_ids": []int64{news, theirs}}), "category_ids", blog.MsgCategories},
		{"too many categories", good(map[string]any{"category_ids": many}), "category_ids", blog.MsgTooManyCats},
		{"unknown status", good(map[string]any{"status": "live"}), "status", blog.MsgStatus},
		{"bad publish date", good(map[string]any{"published_at": "next tuesday"}), "published_at", blog.MsgPublishedAt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("POST", "/api/seller/blog/posts", seller, tc.in)
			if r.status != 422 || r.body.Errors[0].Field != tc.field || r.body.Errors[0].Message != tc.msg {
				t.Fatalf("%d %s", r.status, r.raw)
			}
		})
	}
	r := s.do("POST", "/api/seller/blog/posts", seller, map[string]any{"title": "x", "slug": "x"})
	if r.status != 422 || len(r.body.Errors) != 1 || r.body.Errors[0].Field != "store_id" {
		t.Errorf("every problem at once, and only those: %d %s", r.status, r.raw)
	}
	var n int
	if err := s.app.DB.Get(&n, `SELECT count(*) FROM blog_posts`); err != nil || n != 0 {
		t.Fatalf("refused input stored %d posts %v", n, err)
	}
	variants := func() int {
		var n int
		if err := s.app.DB.Get(&n, `SELECT count(*) FROM task_outbox WHERE task_type = 'render:variant' AND convert_from(payload, 'UTF8') LIKE '%' || $1 || '%'`, cover); err != nil {
			t.Fatal(err)
		}
		return n
	}

	r = s.do("POST", "/api/seller/blog/posts", seller, good(nil))
	if r.status != 201 || r.body.Message != blog.MsgPostCreated {
		t.Fatalf("create %d %s", r.status, r.raw)
	}
	p := postOf(t, r)
	if p.Body != `<p>Warm <strong>hoodies</strong></p><img src="x">` || p.State != "draft" || fmt.Sprint(p.CategoryIDs) != fmt.Sprint([]int64{news}) || variants() != 0 {
		t.Fatalf("created %+v", p)
	}
	path := fmt.Sprintf("/api/seller/blog/posts/%d", p.ID)

	t.Run("address unique per store", func(t *testing.T) {
		if r := s.do("POST", "/api/seller/blog/posts", seller, good(nil)); r.status != 422 || r.body.Errors[0].Field != "slug" || r.body.Errors[0].Message != blog.MsgPostSlugTaken {
			t.Fatalf("same address %d %s", r.status, r.raw)
		}
		d := s.do("GET", fmt.Sprintf("/api/seller/blog/posts/slug-availability?store_id=%d&slug=autumn-drop", demo), seller, nil).body.Data.(map[string]any)
		if d["available"] != false || d["message"] != blog.MsgPostSlugTaken {
			t.Errorf("availability %v", d)
		}
		d = s.do("GET", fmt.Sprintf("/api/seller/blog/posts/slug-availability?store_id=%d&slug=autumn-drop", foreign), seller, nil).body.Data.(map[string]any)
		if d["available"] != false || d["message"] != blog.MsgStore {
			t.Errorf("availability in another seller's store %v", d)
		}
		if r := s.do("POST", "/api/seller/blog/posts", seller, good(map[string]any{"store_id": second})); r.status != 201 {
			t.Fatalf("same address in another store %d %s", r.status, r.raw)
		}
	})

	t.Run("published with a cover, then scheduled", func(t *testing.T) {
		r := s.do("PUT", path, seller, good(map[string]any{"status": "published", "cover_key": cover}))
		if p := postOf(t, r); r.status != 200 || p.State != "published" || p.CoverURL != "/api/files/"+cover || variants() != 1 {
			t.Fatalf("publish %d %s (variants %d)", r.status, r.raw, variants())
		}
		later := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
		r = s.do("PUT", path, seller, good(map[string]any{"status": "published", "cover_key": cover, "published_at": later}))
		if p := postOf(t, r); r.status != 200 || p.State != blog.StateScheduled || variants() != 1 {
			t.Fatalf("schedule %d %s (variants %d: the same cover is not queued again)", r.status, r.raw, variants())
		}
		if list, total, _ := s.postList(seller, fmt.Sprintf("?store_id=%d&state=scheduled", demo)); total != 1 || list[0].ID != p.ID {
			t.Errorf("scheduled posts %+v", list)
		}
		if _, total, _ := s.postList(seller, "?state=draft"); total != 1 {
			t.Errorf("drafts %d", total)
		}
		if _, _, r := s.postList(seller, "?state=gone"); r.status != 422 || r.body.Errors[0].Field != "state" {
			t.Errorf("unknown state %d %s", r.status, r.raw)
		}
	})

	t.Run("another seller's ids answer 404", func(t *testing.T) {
		for _, method := range []string{"GET", "PUT", "DELETE"} {
			if r := s.do(method, path, veteran, good(map[string]any{"store_id": foreign})); r.status != 404 || r.body.Message != blog.MsgPostNotFound {
				t.Errorf("%s %d %s", method, r.status, r.raw)
			}
		}
		if _, total, _ := s.postList(veteran, ""); total != 0 {
			t.Errorf("the veteran lists %d posts", total)
		}
		if _, _, r := s.postList(veteran, fmt.Sprintf("?store_id=%d", demo)); r.status != 404 {
			t.Errorf("the veteran lists the seller's store: %d", r.status)
		}
	})

	t.Run("team members", func(t *testing.T) {
		team := s.teamMember(t, path, good(nil), second)
		if list, total, _ := s.postList(team, ""); total != 1 || list[0].StoreID != second {
			t.Errorf("the member lists %+v", list)
		}
	})

	t.Run("a deleted category leaves its posts", func(t *testing.T) {
		if r := s.do("DELETE", fmt.Sprintf("/api/seller/blog/categories/%d", news), seller, nil); r.status != 200 {
			t.Fatalf("%d %s", r.status, r.raw)
		}
		if p := postOf(t, s.do("GET", path, seller, nil)); len(p.CategoryIDs) != 0 {
			t.Errorf("categories %v", p.CategoryIDs)
		}
	})

	if r := s.do("DELETE", path, seller, nil); r.status != 200 || r.body.Message != blog.MsgPostDeleted {
		t.Fatalf("delete %d %s", r.status, r.raw)
	}
	if r := s.do("GET", path, seller, nil); r.status != 404 {
		t.Fatalf("deleted %d", r.status)
	}
}
