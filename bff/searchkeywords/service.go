package searchkeywords

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
)

// Deps are what the search keyword routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the Search Keywords screen.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("searchkeywords: database and auth are required")
	}
	return &Service{d: d}, nil
}

// The keywords sit in the Storefronts menu, read like the stores: get_campaigns.
var need = access.Permitted(access.GetCampaigns)

// Routes lists the endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	s.d.Auth.Handle(g, http.MethodGet, "/seller/search-keywords", need, s.handleList)
	s.d.Auth.Handle(g, http.MethodGet, "/seller/search-keywords/summary", need, s.handleSummary)
}

// Messages of bad filters.
const (
	MsgStore = "Choose one of your stores."
	MsgKind  = "The list must be top or no_results."
)

// Keyword is a query buyers typed, with how often over the range, how often it found nothing, and
// what its latest search found.
type Keyword struct {
	Query     string    `db:"query" json:"query"`
	Searches  int       `db:"searches" json:"searches"`
	NoResults int       `db:"no_results" json:"no_results"`
	Results   int       `db:"results" json:"results"`
	LastAt    time.Time `db:"last_at" json:"last_searched_at"`
	Total     int       `db:"total" json:"-"`
}

// Summary is the range's totals: searches, different queries and searches that found nothing.
type Summary struct {
	Searches  int `db:"searches" json:"searches"`
	Queries   int `db:"queries" json:"queries"`
	NoResults int `db:"no_results" json:"no_results"`
}

// filter is the stores and hours asked for: $1-$3 the scope, $4 one store (0: all it sees), $5 and
// $6 the range.
type filter struct {
	sc       listing.Scope
	store    int64
	from, to *time.Time
}

func (f filter) args() []any { return append(f.sc.Args(), f.store, f.from, f.to) }

// where keeps the counts of the scope's stores (of the account's, narrowed by the store filter), the
// store asked for and the range.
const where = `FROM search_keywords k JOIN stores s ON s.id = k.store_id
WHERE s.owner_id = $1 AND (NOT $2 OR k.store_id = ANY($3)) AND ($4 = 0 OR k.store_id = $4)
	AND ($5::timestamptz IS NULL OR k.hour >= $5) AND ($6::timestamptz IS NULL OR k.hour < $6)`

// qKeywords groups the counts by query across hours and stores; the results of the latest hour stand
// for what the query finds now. $7 picks the list: top (every query, most searched first) or
// no_results (the queries that found nothing, most often first).
const qKeywords = `SELECT query, sum(searches)::int AS searches, sum(no_results)::int AS no_results,
	(array_agg(results ORDER BY hour DESC))[1] AS results, max(hour) AS last_at, count(*) OVER ()::int AS total
` + where + `
GROUP BY query HAVING $7 = 'top' OR sum(no_results) > 0
ORDER BY CASE WHEN $7 = 'top' THEN sum(searches) ELSE sum(no_results) END DESC, query LIMIT $8 OFFSET $9`

const qSummary = `SELECT coalesce(sum(searches), 0)::int AS searches, count(DISTINCT query)::int AS queries,
	coalesce(sum(no_results), 0)::int AS no_results ` + where

// parse reads store_id and the date range (hours in the caller's utc_offset); every bad one is named.
func (s *Service) parse(c echo.Context) (filter, error) {
	now := time.Now()
	from, to, errs := listing.DateRange(c, auth.Caller(c).User.UTCOffset(now), now)
	f := filter{from: from, to: to}
	if v := c.QueryParam("store_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			errs = append(errs, envelope.FieldError{Field: "store_id", Message: MsgStore})
		}
		f.store = n
	}
	if len(errs) > 0 {
		return filter{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	f.sc = sc
	return f, err
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	kind := c.QueryParam("kind")
	if kind == "" {
		kind = "top"
	}
	if kind != "top" && kind != "no_results" {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgKind, envelope.FieldError{Field: "kind", Message: MsgKind})
	}
	f, err := s.parse(c)
	if err != nil {
		return err
	}
	items, total, err := s.list(c.Request().Context(), f, kind, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) list(ctx context.Context, f filter, kind string, limit, offset int) ([]Keyword, int, error) {
	var rows []Keyword
	if err := s.d.DB.SelectContext(ctx, &rows, qKeywords, append(f.args(), kind, limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("search keywords: %w", err)
	}
	total := 0
	if len(rows) > 0 {
		total = rows[0].Total
	} else if offset > 0 {
		q := `SELECT count(*) FROM (SELECT query ` + where + ` GROUP BY query HAVING $7 = 'top' OR sum(no_results) > 0) x`
		if err := s.d.DB.GetContext(ctx, &total, q, append(f.args(), kind)...); err != nil {
			return nil, 0, fmt.Errorf("count search keywords: %w", err)
		}
	}
	return rows, total, nil
}

func (s *Service) handleSummary(c echo.Context) error {
	f, err := s.parse(c)
	if err != nil {
		return err
	}
	var sum Summary
	if err := s.d.DB.GetContext(c.Request().Context(), &sum, qSummary, f.args()...); err != nil {
		return fmt.Errorf("search keywords summary: %w", err)
	}
	return envelope.OK(c, sum)
}
