package envelope

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// DefaultPerPage is the list page size every screen uses.
const DefaultPerPage = 15

// MaxPerPage caps per_page so one request cannot ask for a whole table.
const MaxPerPage = 100

// MaxPage caps page, so the offset (page-1)*per_page stays far inside an int and a database's
// bigint whatever the two are, and one request cannot make the database skip an unbounded number
// of rows.
const MaxPage = 100_000

// ListQuery is a list request: q, page, per_page and order_by ("column:asc|desc").
type ListQuery struct {
	Q        string
	Page     int
	PerPage  int
	OrderBy  string
	OrderAsc bool
}

// Offset is the number of rows before the page.
func (q ListQuery) Offset() int { return (q.Page - 1) * q.PerPage }

// ParseListQuery reads the list parameters; orderable names the columns order_by may use, the
// first being the default (descending, as in "id:desc").
func ParseListQuery(c echo.Context, orderable ...string) (ListQuery, error) {
	q := ListQuery{Q: strings.TrimSpace(c.QueryParam("q")), Page: 1, PerPage: DefaultPerPage}
	if len(orderable) > 0 {
		q.OrderBy = orderable[0]
	}
	var errs []FieldError
	if v := c.QueryParam("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPage {
			errs = append(errs, FieldError{Field: "page", Message: "The page must be a whole number from 1 to " + strconv.Itoa(MaxPage) + "."})
		}
		q.Page = n
	}
	if v := c.QueryParam("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxPerPage {
			errs = append(errs, FieldError{Field: "per_page", Message: "The per page must be between 1 and " + strconv.Itoa(MaxPerPage) + "."})
		}
		q.PerPage = n
	}
	if v := c.QueryParam("order_by"); v != "" {
		col, dir, _ := strings.Cut(v, ":")
		if !slices.Contains(orderable, col) || (dir != "" && dir != "asc" && dir != "desc") {
			errs = append(errs, FieldError{Field: "order_by", Message: "The order by must be one of " + strings.Join(orderable, ", ") + ", followed by :asc or :desc."})
		}
		q.OrderBy, q.OrderAsc = col, dir == "asc"
	}
	if len(errs) > 0 {
		return ListQuery{}, Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return q, nil
}

// Page is one page of a list with the counts the UI's pager needs. From and To are 1-based
// positions of the first and last item shown, null on an empty page.
type Page[T any] struct {
	Data        []T  `json:"data"`
	Total       int  `json:"total"`
	PerPage     int  `json:"per_page"`
	CurrentPage int  `json:"current_page"`
	LastPage    int  `json:"last_page"`
	From        *int `json:"from"`
	To          *int `json:"to"`
}

// NewPage wraps the items of q's page out of total.
func NewPage[T any](items []T, total int, q ListQuery) Page[T] {
	if items == nil {
		items = []T{}
	}
	p := Page[T]{Data: items, Total: total, PerPage: q.PerPage, CurrentPage: q.Page, LastPage: 1}
	if total > 0 {
		p.LastPage = (total + q.PerPage - 1) / q.PerPage
	}
	if len(items) > 0 {
		from, to := q.Offset()+1, q.Offset()+len(items)
		p.From, p.To = &from, &to
	}
	return p
}

// PathID is the route's :id parameter as a row id, or 0 when it is not a positive integer (which
// no row has, so the lookup that follows answers 404 as for an id that does not exist).
func PathID(c echo.Context) int64 {
	return PathParamID(c, "id")
}

// PathParamID is PathID for the route parameter name (":page_id" and the like).
func PathParamID(c echo.Context, name string) int64 {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}
