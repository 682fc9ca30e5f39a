package app

import (
	"fmt"
	"testing"

	"github.com/pressroom/pressroom/bff/trademarks"
)

func TestTrademarkList(t *testing.T) {
	e := newEditor(t)
	admin := e.login("admin", "admin@example.com")
	for _, term := range []string{"Just  Do It!", "nike"} {
		if r := e.do("POST", "/api/admin/trademarks", admin, obj{"term": term, "note": "registered"}); r.status != 201 {
			t.Fatalf("add %q: %d %s", term, r.status, r.raw)
		}
	}
	bad := []struct {
		name string
		body obj
		msg  string
	}{
		{"the same term in other letters", obj{"term": "JUST DO IT"}, trademarks.MsgTaken},
		{"punctuation only", obj{"term": " -!- "}, trademarks.MsgTerm},
	}
	for _, b := range bad {
		if r := e.do("POST", "/api/admin/trademarks", admin, b.body); r.status != 422 || r.body.Errors[0].Field != "term" || r.body.Message != b.msg {
			t.Fatalf("%s: %d %s", b.name, r.status, r.raw)
		}
	}
	if r := e.do("POST", "/api/admin/trademarks", e.token, obj{"term": "acme"}); r.status != 403 {
		t.Fatalf("a seller adds a term: %d %s", r.status, r.raw)
	}
	var list []trademarks.Trademark
	r := e.do("GET", "/api/admin/trademarks", admin, nil)
	decode(t, r, &list)
	if len(list) != 2 || list[0].Term != "just do it" || list[1].Term != "nike" {
		t.Fatalf("list: %s", r.raw)
	}

	// The campaign is saved whatever its name; the answer warns of listed terms as whole words.
	c := e.create("JUST-DO-IT summer tee", "T-shirt")
	warnings := func(c obj) []string {
		var out []string
		for _, w := range c["warnings"].([]any) {
			w := w.(obj)
			if w["field"] != "name" {
				t.Fatalf("warning on %v", w["field"])
			}
			out = append(out, w["term"].(string)+": "+w["message"].(string))
		}
		return out
	}
	if got := warnings(c); len(got) != 1 ||
		got[0] != `just do it: "just do it" is on the list of trademarks: a campaign using it without the owner's permission may be taken down.` {
		t.Fatalf("created: %v", got)
	}
	art := e.upload("uploads/trademark-art.png")
	designs := []obj{design(productID(c, 0), "front", doc("front", imageObj("art", art)))}
	save := func(name string) obj {
		t.Helper()
		r := e.do("PUT", path(c), e.token, obj{"name": name, "products": products(c), "designs": designs})
		if r.status != 200 {
			t.Fatalf("save %q: %d %s", name, r.status, r.raw)
		}
		return r.body.Data.(obj)
	}
	if got := warnings(save("Nike Air & just do it")); len(got) != 2 {
		t.Fatalf("two terms: %v", got)
	}
	if got := warnings(save("Nikelodeon fans")); len(got) != 0 {
		t.Fatalf("a longer word is not the term: %v", got)
	}

	if r := e.do("DELETE", fmt.Sprintf("/api/admin/trademarks/%d", list[1].ID), admin, nil); r.status != 200 {
		t.Fatalf("remove: %d %s", r.status, r.raw)
	}
	if got := warnings(save("Nike Air")); len(got) != 0 {
		t.Fatalf("a removed term still warns: %v", got)
	}
	if r := e.do("DELETE", fmt.Sprintf("/api/admin/trademarks/%d", list[1].ID), admin, nil); r.status != 404 {
		t.Fatalf("remove again: %d %s", r.status, r.raw)
	}
}
