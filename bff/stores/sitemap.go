package stores

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/storesite"
)

// The sitemap screens show what the storefront's sitemap.xml holds (commerce/storesite lays out
// both): where to submit it, its sections and the addresses of each file. See docs/sitemap.md.

// MsgNoSitemapFile is the answer for a sitemap file the store does not have.
const MsgNoSitemapFile = "This sitemap has no such file: its sections may have changed since the page was loaded."

// SitemapAddress is one address the store's sitemap can be submitted at: the store's own address
// and each verified custom domain.
type SitemapAddress struct {
	Origin  string `json:"origin"`
	Sitemap string `json:"sitemap"`
	Robots  string `json:"robots"`
	// Custom is true for a custom domain of the store.
	Custom bool `json:"custom"`
}

// SitemapFile is a file of a section, with its address under the store's own address.
type SitemapFile struct {
	storesite.File
	URL string `json:"url"`
}

// SitemapSection is a section with its count, last change and files.
type SitemapSection struct {
	Section      storesite.Section `json:"section"`
	URLs         int               `json:"urls"`
	LastModified *time.Time        `json:"last_modified"`
	Files        []SitemapFile     `json:"files"`
}

// Sitemap is what the sitemap screen shows of a store.
type Sitemap struct {
	StoreID   int64            `json:"store_id"`
	StoreName string           `json:"store_name"`
	Addresses []SitemapAddress `json:"addresses"`
	Sections  []SitemapSection `json:"sections"`
	// MaxURLs is how many addresses one file holds at most.
	MaxURLs int `json:"max_urls"`
}

// SitemapURL is an address of a sitemap file, as the storefront lists it.
type SitemapURL struct {
	URL          string     `json:"url"`
	LastModified *time.Time `json:"last_modified"`
}

const qVerifiedDomains = `SELECT domain FROM store_domains WHERE store_id = $1 AND verified_at IS NOT NULL ORDER BY domain`

func (s store) verifiedDomains(ctx context.Context, storeID int64) ([]string, error) {
	out := []string{}
	err := s.db.SelectContext(ctx, &out, qVerifiedDomains, storeID)
	return out, err
}

// siteMap is the caller's visible store named by :id (or a 404) and its sitemap.
func (s *Service) siteMap(c echo.Context) (Store, []storesite.SectionMap, error) {
	st, err := s.storeOf(c)
	if err != nil {
		return st, nil, err
	}
	maps, err := storesite.Map(c.Request().Context(), s.d.DB, st.ID)
	return st, maps, err
}

func (s *Service) handleSitemap(c echo.Context) error {
	st, maps, err := s.siteMap(c)
	if err != nil {
		return err
	}
	domains, err := s.store.verifiedDomains(c.Request().Context(), st.ID)
	if err != nil {
		return err
	}
	origin := s.d.Site.Origin(st.Slug)
	out := Sitemap{StoreID: st.ID, StoreName: st.Name, MaxURLs: storesite.MaxURLs,
		Addresses: []SitemapAddress{{Origin: origin, Sitemap: origin + "/sitemap.xml", Robots: origin + "/robots.txt"}}}
	for _, d := range domains {
		o := s.d.Site.DomainOrigin(d)
		out.Addresses = append(out.Addresses, SitemapAddress{Origin: o, Sitemap: o + "/sitemap.xml", Robots: o + "/robots.txt", Custom: true})
	}
	for _, m := range maps {
		sec := SitemapSection{Section: m.Section, URLs: m.URLs, LastModified: m.LastModified, Files: []SitemapFile{}}
		for _, f := range m.Files {
			sec.Files = append(sec.Files, SitemapFile{File: f, URL: origin + f.Path()})
		}
		out.Sections = append(out.Sections, sec)
	}
	return envelope.OK(c, out)
}

// handleSitemapURLs is a page of the addresses of one sitemap file.
func (s *Service) handleSitemapURLs(c echo.Context) error {
	q, err := envelope.ParseListQuery(c)
	if err != nil {
		return err
	}
	st, maps, err := s.siteMap(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	f, ok := storesite.FindFile(maps, c.Param("file"))
	if !ok {
		return envelope.Fail(http.StatusNotFound, MsgNoSitemapFile)
	}
	items := []SitemapURL{}
	if n := min(q.PerPage, f.URLs-q.Offset()); n > 0 {
		list, err := storesite.URLs(ctx, s.d.DB, st.ID, f.Section, f.Offset()+q.Offset(), n)
		if err != nil {
			return err
		}
		origin := s.d.Site.Origin(st.Slug)
		for _, u := range list {
			items = append(items, SitemapURL{URL: origin + u.Path, LastModified: u.LastModified})
		}
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, f.URLs, q))
}
