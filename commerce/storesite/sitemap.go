package storesite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// MaxURLs is the most addresses one sitemap file holds (the sitemaps.org protocol's limit); a
// larger section is split into several files.
const MaxURLs = 50_000

// Section is a part of a store's sitemap, listed in files of its own.
type Section string

// The sections, in the order the sitemap index lists them.
const (
	// Pages: the store's home and its published pages.
	Pages Section = "pages"
	// Campaigns: the product page of every campaign on sale.
	Campaigns Section = "campaigns"
	// Collections: the page of every collection shown with something on sale.
	Collections Section = "collections"
	// Blog: the blog's first page, its categories with a published post, and its published posts
	// (none of them while the store has no published post).
	Blog Section = "blog"
)

// Sections lists every section in the index's order.
var Sections = []Section{Pages, Campaigns, Collections, Blog}

// sectionSQL selects the addresses of a section of store $1 as (path, lastmod, kind, id), where
// (kind, id) orders them for good: a file keeps its addresses while nothing is added or removed.
var sectionSQL = map[Section]string{
	Pages: `SELECT '/' AS path, NULL::timestamptz AS lastmod, 0 AS kind, 0::bigint AS id
UNION ALL
SELECT '/p/' || pg.slug, pg.updated_at, 1, pg.id FROM store_pages pg JOIN stores s ON s.id = $1 WHERE ` + PagePublished,
	Campaigns: `SELECT '/c/' || c.id AS path, c.updated_at AS lastmod, 0 AS kind, c.id
FROM campaigns c JOIN stores s ON s.id = $1 AND c.user_id = s.owner_id
WHERE EXISTS (SELECT 1 FROM store_products sp WHERE ` + ProductOnSale + `)`,
	Collections: `SELECT '/collections/' || k.slug AS path, k.updated_at AS lastmod, 0 AS kind, k.id
FROM collections k JOIN stores s ON s.id = $1 WHERE ` + CollectionShown + ` AND ` + CollectionOnSale,
	Blog: `WITH posts AS (SELECT bp.id, bp.slug, greatest(bp.updated_at, bp.published_at) AS lastmod
	FROM blog_posts bp JOIN stores s ON s.id = $1 WHERE ` + PostPublished + `)
SELECT '/blog' AS path, (SELECT max(lastmod) FROM posts) AS lastmod, 0 AS kind, 0::bigint AS id WHERE EXISTS (SELECT 1 FROM posts)
UNION ALL
SELECT '/blog/category/' || bc.slug, NULL, 1, bc.id FROM blog_categories bc JOIN stores s ON s.id = $1 WHERE ` + CategoryShown + `
UNION ALL
SELECT '/blog/' || slug, lastmod, 2, id FROM posts`,
}

// SectionMap is a section of a store's sitemap: how many addresses it has, when the newest of
// them last changed (nil when none says), and its files.
type SectionMap struct {
	Section      Section    `json:"section"`
	URLs         int        `json:"urls"`
	LastModified *time.Time `json:"last_modified"`
	Files        []File     `json:"files"`
}

// File is one sitemap file: Number (from 1) of its section, holding URLs addresses.
type File struct {
	ID      string  `json:"id"`
	Section Section `json:"section"`
	Number  int     `json:"number"`
	URLs    int     `json:"urls"`
}

// Path is where the storefront serves the file under a store's address.
func (f File) Path() string { return "/sitemaps/" + f.ID + ".xml" }

// Offset is the position in its section of the file's first address.
func (f File) Offset() int { return (f.Number - 1) * MaxURLs }

// URL is one address of a sitemap: its path under the store's address and when it last changed
// (nil when unknown).
type URL struct {
	Path         string     `db:"path" json:"path"`
	LastModified *time.Time `db:"lastmod" json:"last_modified"`
}

// Map is the sitemap of store storeID, section by section; a section without addresses has no file.
func Map(ctx context.Context, db sqlx.QueryerContext, storeID int64) ([]SectionMap, error) {
	out := make([]SectionMap, 0, len(Sections))
	for _, sec := range Sections {
		var row struct {
			N       int          `db:"n"`
			LastMod sql.NullTime `db:"lastmod"`
		}
		q := `SELECT count(*) AS n, max(lastmod) AS lastmod FROM (` + sectionSQL[sec] + `) a`
		if err := sqlx.GetContext(ctx, db, &row, q, storeID); err != nil {
			return nil, fmt.Errorf("sitemap %s: %w", sec, err)
		}
		m := SectionMap{Section: sec, URLs: row.N, Files: []File{}}
		if row.LastMod.Valid {
			t := row.LastMod.Time.UTC()
			m.LastModified = &t
		}
		for n := 1; (n-1)*MaxURLs < row.N; n++ {
			m.Files = append(m.Files, File{ID: string(sec) + "-" + strconv.Itoa(n), Section: sec, Number: n,
				URLs: min(MaxURLs, row.N-(n-1)*MaxURLs)})
		}
		out = append(out, m)
	}
	return out, nil
}

// FindFile is the file of maps named id ("campaigns-2", with or without ".xml"), if it has one.
func FindFile(maps []SectionMap, id string) (File, bool) {
	id = strings.TrimSuffix(id, ".xml")
	for _, m := range maps {
		for _, f := range m.Files {
			if f.ID == id {
				return f, true
			}
		}
	}
	return File{}, false
}

// URLs are at most limit addresses of section sec of store storeID from the offset-th (from 0), in
// the sitemap's order.
func URLs(ctx context.Context, db sqlx.QueryerContext, storeID int64, sec Section, offset, limit int) ([]URL, error) {
	q, ok := sectionSQL[sec]
	if !ok {
		return nil, fmt.Errorf("sitemap: no section %q", sec)
	}
	out := []URL{}
	err := sqlx.SelectContext(ctx, db, &out, `SELECT path, lastmod FROM (`+q+`) a ORDER BY kind, id LIMIT $2 OFFSET $3`, storeID, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("sitemap %s: %w", sec, err)
	}
	for _, u := range out {
		if u.LastModified != nil {
			*u.LastModified = u.LastModified.UTC()
		}
	}
	return out, nil
}
