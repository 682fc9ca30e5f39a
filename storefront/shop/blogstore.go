package shop

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/pressroom/pressroom/commerce/storesite"
)

// PostsPerPage is how many posts a page of the blog shows.
const PostsPerPage = 12

// Post is a published blog post: whole on its page, its first 4000 characters of body in lists
// (enough for the excerpt of a post without one).
type Post struct {
	ID          int64     `db:"id"`
	Title       string    `db:"title"`
	Slug        string    `db:"slug"`
	Excerpt     string    `db:"excerpt"`
	Body        string    `db:"body"`
	CoverKey    string    `db:"cover_key"`
	PublishedAt time.Time `db:"published_at"`
	UpdatedAt   time.Time `db:"updated_at"`
	Categories  []BlogCategory
}

// BlogCategory is a blog category with a post published in the store.
type BlogCategory struct {
	ID          int64  `db:"id"`
	Slug        string `db:"slug"`
	Name        string `db:"name"`
	Description string `db:"description"`
}

const postCols = `bp.id, bp.title, bp.slug, bp.excerpt, bp.cover_key, bp.published_at, bp.updated_at`

// SQL of the blog. qPosts is a page of store $1's published posts, newest first, in category $2
// (0: any); qPost one by slug; qCategories the categories with a published post; qCover the cover
// of published post $2 and the content type it was uploaded as.
var (
	postsWhere = ` FROM blog_posts bp JOIN stores s ON s.id = $1 WHERE ` + storesite.PostPublished + `
	AND ($2::bigint = 0 OR EXISTS (SELECT 1 FROM blog_post_categories x WHERE x.post_id = bp.id AND x.category_id = $2))`
	qPosts          = `SELECT ` + postCols + `, left(bp.body, 4000) AS body` + postsWhere + ` ORDER BY bp.published_at DESC, bp.id DESC LIMIT $3 OFFSET $4`
	qPostCount      = `SELECT count(*)` + postsWhere
	qPost           = `SELECT ` + postCols + `, bp.body FROM blog_posts bp JOIN stores s ON s.id = $1 WHERE ` + storesite.PostPublished + ` AND bp.slug = $2`
	qHasBlog        = `SELECT EXISTS (SELECT 1 FROM blog_posts bp JOIN stores s ON s.id = $1 WHERE ` + storesite.PostPublished + `)`
	categoryCols    = `bc.id, bc.slug, bc.name, bc.description`
	qCategories     = `SELECT ` + categoryCols + ` FROM blog_categories bc JOIN stores s ON s.id = $1 WHERE ` + storesite.CategoryShown + ` ORDER BY lower(bc.name), bc.id LIMIT 100`
	qCategory       = `SELECT ` + categoryCols + ` FROM blog_categories bc JOIN stores s ON s.id = $1 WHERE ` + storesite.CategoryShown + ` AND bc.slug = $2`
	qPostCategories = `SELECT ` + categoryCols + ` FROM blog_categories bc JOIN blog_post_categories x ON x.category_id = bc.id
WHERE x.post_id = $1 ORDER BY lower(bc.name), bc.id`
	qCover = `SELECT bp.cover_key, coalesce(u.content_type, '') AS content_type FROM blog_posts bp JOIN stores s ON s.id = $1
LEFT JOIN uploads u ON u.blob_key = bp.cover_key WHERE ` + storesite.PostPublished + ` AND bp.id = $2 AND bp.cover_key <> ''`
)

// hasBlog reports whether the store has a published post (its menu then links the blog).
func (s store) hasBlog(ctx context.Context, storeID int64) (bool, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, qHasBlog, storeID)
	return ok, err
}

// posts is page (from 1) of the store's published posts in category (0: any), and how many
// there are in all.
func (s store) posts(ctx context.Context, storeID, category int64, page int) ([]Post, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, qPostCount, storeID, category); err != nil {
		return nil, 0, fmt.Errorf("count posts: %w", err)
	}
	var out []Post
	if err := s.db.SelectContext(ctx, &out, qPosts, storeID, category, PostsPerPage, (page-1)*PostsPerPage); err != nil {
		return nil, 0, fmt.Errorf("list posts: %w", err)
	}
	return out, total, nil
}

// post is the store's published post at slug with its categories, or errNotFound.
func (s store) post(ctx context.Context, storeID int64, slug string) (Post, error) {
	var p Post
	if err := s.db.GetContext(ctx, &p, qPost, storeID, slug); errors.Is(err, sql.ErrNoRows) {
		return p, errNotFound
	} else if err != nil {
		return p, fmt.Errorf("get post: %w", err)
	}
	if err := s.db.SelectContext(ctx, &p.Categories, qPostCategories, p.ID); err != nil {
		return p, fmt.Errorf("post categories: %w", err)
	}
	return p, nil
}

// blogCategories are the categories with a post published in the store, by name.
func (s store) blogCategories(ctx context.Context, storeID int64) ([]BlogCategory, error) {
	var out []BlogCategory
	if err := s.db.SelectContext(ctx, &out, qCategories, storeID); err != nil {
		return nil, fmt.Errorf("list blog categories: %w", err)
	}
	return out, nil
}

// blogCategory is the category at slug with a post published in the store, or errNotFound.
func (s store) blogCategory(ctx context.Context, storeID int64, slug string) (BlogCategory, error) {
	var c BlogCategory
	if err := s.db.GetContext(ctx, &c, qCategory, storeID, slug); errors.Is(err, sql.ErrNoRows) {
		return c, errNotFound
	} else if err != nil {
		return c, fmt.Errorf("get blog category: %w", err)
	}
	return c, nil
}

// cover is the blob key of a published post's cover and the content type it was uploaded as, or
// errNotFound.
func (s store) cover(ctx context.Context, storeID, postID int64) (key, contentType string, err error) {
	var row struct {
		Key         string `db:"cover_key"`
		ContentType string `db:"content_type"`
	}
	if err := s.db.GetContext(ctx, &row, qCover, storeID, postID); errors.Is(err, sql.ErrNoRows) {
		return "", "", errNotFound
	} else if err != nil {
		return "", "", err
	}
	return row.Key, row.ContentType, nil
}
