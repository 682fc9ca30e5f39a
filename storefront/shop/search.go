package shop

import (
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lib/pq"
)

// maxQuery is the longest search kept, in characters; maxQueryWords the words a search matches on.
const (
	maxQuery      = 100
	maxQueryWords = 8
	maxResults    = 60
)

// normalizeQuery is a search as it is matched and counted: lower case, control characters out,
// spaces single, at most maxQuery characters. Two buyers typing "Cat  Mug" and "cat mug" search
// for the same thing (docs/search-keywords.md).
func normalizeQuery(q string) string {
	q = strings.ToLower(strings.ToValidUTF8(q, ""))
	q = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.In(r, unicode.Bidi_Control) {
			return ' '
		}
		return r
	}, q)
	q = strings.Join(strings.Fields(q), " ")
	if utf8.RuneCountInString(q) > maxQuery {
		q = strings.TrimSpace(string([]rune(q)[:maxQuery]))
	}
	return q
}

// searchData is the search page: the query as typed and normalized, and what it found.
type searchData struct {
	Query   string
	Results []Listing
}

// qSearch is the campaigns on sale in store $1 whose name or one of whose products' names holds
// every word of $2 (lower case), those whose name holds the whole query $3 first, then the newest.
var qSearch = `SELECT l.* FROM (` + onSale(` AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) w
	WHERE strpos(lower(c.name), w) = 0
	AND NOT EXISTS (SELECT 1 FROM campaign_products p JOIN store_products ap ON ap.product_id = p.id AND ap.store_id = sp.store_id
		AND ap.status = 'active' WHERE p.campaign_id = c.id AND strpos(lower(p.name), w) > 0))`) + `) l
ORDER BY strpos(lower(l.name), $3) = 0, l.campaign_id DESC LIMIT ` + strconv.Itoa(maxResults)

// search is /search?q=: the store's campaigns matching the query. Every search with words is
// counted for the seller's Search Keywords, with whether it found anything; the counts are written
// in batches (keywords), so the page does not wait for them.
func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	raw := r.URL.Query().Get("q")
	q := normalizeQuery(raw)
	d := searchData{Query: strings.TrimSpace(raw)}
	v := view{Title: "Search — " + rs.Name, Query: d.Query, Canonical: rs.Origin + "/search"}
	if q != "" {
		words := strings.Fields(q)
		if len(words) > maxQueryWords {
			words = words[:maxQueryWords]
		}
		if err := s.d.DB.SelectContext(r.Context(), &d.Results, qSearch, rs.ID, pq.Array(words), q); err != nil {
			s.fail(w, r, err)
			return
		}
		s.keywords.record(rs.ID, q, len(d.Results))
		v.Title = d.Query + " — " + rs.Name
	}
	v.Data = d
	w.Header().Set("X-Robots-Tag", "noindex")
	s.show(w, r, http.StatusOK, cachePrivate, "search", v)
}
