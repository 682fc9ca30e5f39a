package shop

import (
	"database/sql"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/pressroom/pressroom/worker/tasks"
)

// qFeed is feed $2 of store $1 with whether it was ever built.
const qFeed = `SELECT format, built_at IS NOT NULL AS built FROM social_feeds WHERE store_id = $1 AND id = $2`

// feed serves a social feed of the store at its stable address, /feeds/{id}.xml (Google Merchant) or
// /feeds/{id}.csv (Facebook): the file the worker built last (docs/social-feeds.md). A feed not
// built yet answers 503 with Retry-After, so a catalogue's fetcher comes back.
func (s *Server) feed(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	name, ext, _ := strings.Cut(r.PathValue("file"), ".")
	id, err := strconv.ParseInt(name, 10, 64)
	if err != nil {
		s.notFound(w, r, "This store has no such feed.")
		return
	}
	var row struct {
		Format string `db:"format"`
		Built  bool   `db:"built"`
	}
	err = s.d.DB.GetContext(r.Context(), &row, qFeed, rs.ID, id)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && tasks.FeedExt(row.Format) != ext) {
		s.notFound(w, r, "This store has no such feed.")
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	if !row.Built {
		w.Header().Set("Retry-After", "60")
		w.Header().Set("Cache-Control", cachePrivate)
		http.Error(w, "This feed is being built. Please try again in a minute.", http.StatusServiceUnavailable)
		return
	}
	s.serveBlob(w, r, tasks.FeedKey(id, row.Format), tasks.FeedContentType(row.Format), cachePublic)
}
