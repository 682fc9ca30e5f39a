package app

import "testing"

// TestListPageIsBounded: a page number that would overflow the offset, or is no page at all, is
// refused with 422 on the field, never a 500.
func TestListPageIsBounded(t *testing.T) {
	s := newStack(t)
	seller := s.mint("seller@example.com", "own", "", false)
	for _, list := range []string{"/api/seller/campaigns", "/api/uploads"} {
		for _, page := range []string{"9223372036854775807", "100001", "-1", "0", "abc", "1e3"} {
			r := s.do("GET", list+"?page="+page, seller, nil)
			if r.status != 422 || len(r.body.Errors) == 0 || r.body.Errors[0].Field != "page" {
				t.Errorf("GET %s?page=%s: %d %s, want 422 on page", list, page, r.status, r.raw)
			}
		}
		if r := s.do("GET", list+"?page=100000", seller, nil); r.status != 200 {
			t.Errorf("GET %s?page=100000: %d %s", list, r.status, r.raw)
		}
	}
}
