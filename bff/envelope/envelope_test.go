package envelope

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/labstack/echo/v4"
)

func TestErrorHandler(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int
		want       Response
	}{
		{
			name: "user error keeps its message and field errors", wantStatus: 422,
			err:  Fail(422, "The email field is required.", FieldError{Field: "email", Message: "The email field is required."}),
			want: Response{Message: "The email field is required.", Errors: []FieldError{{Field: "email", Message: "The email field is required."}}},
		},
		{
			name: "message alone becomes the only error", err: Fail(401, MsgUnauthenticated), wantStatus: 401,
			want: Response{Message: MsgUnauthenticated, Errors: []FieldError{{Message: MsgUnauthenticated}}},
		},
		{
			name: "echo 404 reads as not found", err: echo.ErrNotFound, wantStatus: 404,
			want: Response{Message: MsgNotFound, Errors: []FieldError{{Message: MsgNotFound}}},
		},
		{
			name: "internal details never reach the user", err: errors.New("pq: password authentication failed"), wantStatus: 500,
			want: Response{Message: MsgInternal, Errors: []FieldError{{Message: MsgInternal}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := echo.New()
			rec := httptest.NewRecorder()
			c := e.NewContext(httptest.NewRequest(http.MethodGet, "/api/x", nil), rec)
			ErrorHandler(slog.New(slog.DiscardHandler))(tt.err, c)
			if rec.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tt.wantStatus)
			}
			var got Response
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("body (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseListQuery(t *testing.T) {
	tests := []struct {
		name      string
		query     string
		want      ListQuery
		wantField string
	}{
		{name: "defaults are page 1 of 15 by id desc", query: "", want: ListQuery{Page: 1, PerPage: 15, OrderBy: "id"}},
		{name: "all set", query: "q=+mug+&page=3&per_page=50&order_by=name:asc", want: ListQuery{Q: "mug", Page: 3, PerPage: 50, OrderBy: "name", OrderAsc: true}},
		{name: "page zero", query: "page=0", wantField: "page"},
		{name: "negative page", query: "page=-1", wantField: "page"},
		{name: "page not a number", query: "page=abc", wantField: "page"},
		{name: "page that overflows the offset", query: "page=9223372036854775807", wantField: "page"},
		{name: "page past the last allowed", query: "page=100001", wantField: "page"},
		{name: "last allowed page", query: "page=100000&per_page=100", want: ListQuery{Page: 100000, PerPage: 100, OrderBy: "id"}},
		{name: "per page too large", query: "per_page=1000", wantField: "per_page"},
		{name: "unknown order column", query: "order_by=password:asc", wantField: "order_by"},
		{name: "bad direction", query: "order_by=id:sideways", wantField: "order_by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/api/x?"+tt.query, nil), httptest.NewRecorder())
			got, err := ParseListQuery(c, "id", "name")
			if tt.wantField != "" {
				var e *Error
				if !errors.As(err, &e) || e.Status != 422 || e.Errors[0].Field != tt.wantField {
					t.Fatalf("err = %#v, want 422 on %s", err, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewPage(t *testing.T) {
	ptr := func(n int) *int { return &n }
	tests := []struct {
		name  string
		items []int
		total int
		q     ListQuery
		want  Page[int]
	}{
		{name: "empty list", items: nil, total: 0, q: ListQuery{Page: 1, PerPage: 15},
			want: Page[int]{Data: []int{}, PerPage: 15, CurrentPage: 1, LastPage: 1}},
		{name: "middle page", items: []int{16, 17}, total: 32, q: ListQuery{Page: 2, PerPage: 15},
			want: Page[int]{Data: []int{16, 17}, Total: 32, PerPage: 15, CurrentPage: 2, LastPage: 3, From: ptr(16), To: ptr(17)}},
		{name: "exact fill", items: []int{1, 2, 3}, total: 3, q: ListQuery{Page: 1, PerPage: 3},
			want: Page[int]{Data: []int{1, 2, 3}, Total: 3, PerPage: 3, CurrentPage: 1, LastPage: 1, From: ptr(1), To: ptr(3)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, NewPage(tt.items, tt.total, tt.q)); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPathID(t *testing.T) {
	for param, want := range map[string]int64{"42": 42, "0": 0, "-3": 0, "abc": 0, "": 0, "99999999999999999999": 0} {
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/api/x", nil), httptest.NewRecorder())
		c.SetParamNames("id")
		c.SetParamValues(param)
		if got := PathID(c); got != want {
			t.Errorf("PathID(%q) = %d, want %d", param, got, want)
		}
		c.SetParamNames("id", "page_id")
		c.SetParamValues("7", param)
		if got := PathParamID(c, "page_id"); got != want {
			t.Errorf("PathParamID(page_id = %q) = %d, want %d", param, got, want)
		}
	}
}
