package shop

import (
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/pressroom/pressroom/commerce/storesite"
)

// The sitemap is an index (/sitemap.xml) of one file per section and per MaxURLs addresses
// (/sitemaps/{section}-{n}.xml), as commerce/storesite lays it out; every address names the
// store's canonical origin. See docs/sitemap.md.

const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

func (s *Server) robots(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", cachePublic)
	fmt.Fprintf(w, "User-agent: *\nDisallow: %[1]s/cart\nDisallow: %[1]s/checkout\nDisallow: %[1]s/orders/\nDisallow: %[1]s/api/\nSitemap: %[2]s/sitemap.xml\n",
		rs.Base, rs.Origin)
}

type sitemapEntry struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

func lastMod(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// sitemap is the index of the store's sitemap files.
func (s *Server) sitemap(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	maps, err := storesite.Map(r.Context(), s.d.DB, rs.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var files []sitemapEntry
	for _, m := range maps {
		for _, f := range m.Files {
			files = append(files, sitemapEntry{Loc: rs.Origin + f.Path(), LastMod: lastMod(m.LastModified)})
		}
	}
	writeXML(w, struct {
		XMLName xml.Name       `xml:"sitemapindex"`
		NS      string         `xml:"xmlns,attr"`
		Files   []sitemapEntry `xml:"sitemap"`
	}{NS: sitemapNS, Files: files})
}

// sitemapFile is one file of the store's sitemap, or 404.
func (s *Server) sitemapFile(w http.ResponseWriter, r *http.Request) {
	rs := storeOf(r)
	maps, err := storesite.Map(r.Context(), s.d.DB, rs.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	f, ok := storesite.FindFile(maps, r.PathValue("file"))
	if !ok {
		s.notFound(w, r, "This store's sitemap has no such file.")
		return
	}
	list, err := storesite.URLs(r.Context(), s.d.DB, rs.ID, f.Section, f.Offset(), storesite.MaxURLs)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	urls := make([]sitemapEntry, len(list))
	for i, u := range list {
		urls[i] = sitemapEntry{Loc: rs.Origin + u.Path, LastMod: lastMod(u.LastModified)}
	}
	writeXML(w, struct {
		XMLName xml.Name       `xml:"urlset"`
		NS      string         `xml:"xmlns,attr"`
		URLs    []sitemapEntry `xml:"url"`
	}{NS: sitemapNS, URLs: urls})
}

func writeXML(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", cachePublic)
	io.WriteString(w, xml.Header)
	xml.NewEncoder(w).Encode(v)
}
