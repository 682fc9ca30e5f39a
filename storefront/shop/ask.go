package shop

import (
	"errors"
	"io"
	"net/http"

	"github.com/pressroom/pressroom/platform/customdomain"
)

// AskPath is where an operator's TLS proxy asks whether to get a certificate for a domain
// (?domain=name): 200 for a store's verified custom domain, 404 for any other name. It answers on
// any host. See docs/domains.md.
const AskPath = "/tls/ask"

func (s *Server) ask(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", cachePrivate)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, err := customdomain.Normalize(r.URL.Query().Get("domain"))
	if err != nil {
		http.Error(w, "not a domain of a store", http.StatusNotFound)
		return
	}
	if _, err := s.store.slugByDomain(r.Context(), name); errors.Is(err, errNotFound) {
		http.Error(w, "not a domain of a store", http.StatusNotFound)
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	io.WriteString(w, "ok")
}
