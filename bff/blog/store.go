package blog

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/storesite"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Errors of the store boundary.
var (
	// ErrNotFound: no such category or post in the caller's account (or stores).
	ErrNotFound = errors.New("not found")
	// ErrSlugTaken: the seller has a category, or the store a post, at that slug (23505).
	ErrSlugTaken = errors.New("slug taken")
)

// Category is a blog category of the seller, with how many posts it holds.
type Category struct {
	ID          int64     `db:"id" json:"id"`
	Name        string    `db:"name" json:"name"`
	Slug        string    `db:"slug" json:"slug"`
	Description string    `db:"description" json:"description"`
	Posts       int       `db:"posts" json:"posts"`
	CreatedAt   time.Time `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time `db:"updated_at" json:"updated_at"`
}

// Named is a category as a post names it.
type Named struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// Post is a post as the screens show it; Body is filled by get only (empty in the list). State is
// draft, scheduled (published with a date to come) or published.
type Post struct {
	ID          int64      `db:"id" json:"id"`
	StoreID     int64      `db:"store_id" json:"store_id"`
	StoreName   string     `db:"store_name" json:"store_name"`
	StoreSlug   string     `db:"store_slug" json:"store_slug"`
	Title       string     `db:"title" json:"title"`
	Slug        string     `db:"slug" json:"slug"`
	Excerpt     string     `db:"excerpt" json:"excerpt"`
	Body        string     `db:"body" json:"body"`
	CoverKey    string     `db:"cover_key" json:"cover_key"`
	CoverURL    string     `db:"-" json:"cover_url"`
	Status      string     `db:"status" json:"status"`
	State       string     `db:"state" json:"state"`
	PublishedAt *time.Time `db:"published_at" json:"published_at"`
	CategoryIDs []int64    `db:"-" json:"category_ids"`
	Categories  []Named    `db:"-" json:"categories"`
	CreatedAt   time.Time  `db:"created_at" json:"created_at"`
	UpdatedAt   time.Time  `db:"updated_at" json:"updated_at"`
}

type postRow struct {
	Post
	CategoriesJSON []byte `db:"categories"`
}

func (r postRow) post() (Post, error) {
	p := r.Post
	if err := json.Unmarshal(r.CategoriesJSON, &p.Categories); err != nil {
		return Post{}, fmt.Errorf("post %d categories: %w", p.ID, err)
	}
	p.CategoryIDs = make([]int64, len(p.Categories))
	for i, c := range p.Categories {
		p.CategoryIDs[i] = c.ID
	}
	if p.CoverKey != "" {
		p.CoverURL = "/api/files/" + p.CoverKey
	}
	return p, nil
}

// PostFilter narrows the posts list: to one store (0: every store the caller sees), one state
// ("" for any), a text in the title or address.
type PostFilter struct {
	StoreID int64
	State   string
	Q       string
}

const (
	qCategories = `SELECT c.id, c.name, c.slug, c.description, c.created_at, c.updated_at,
	(SELECT count(*) FROM blog_post_categories x WHERE x.category_id = c.id) AS posts
FROM blog_categories c WHERE c.seller_id = $1 AND ($2 = '' OR c.name ILIKE $2 ESCAPE '\' OR c.slug ILIKE $2 ESCAPE '\')
	AND ($3::bigint = 0 OR c.id = $3)`
	qCategoriesCount = `SELECT count(*) FROM blog_categories c
WHERE c.seller_id = $1 AND ($2 = '' OR c.name ILIKE $2 ESCAPE '\' OR c.slug ILIKE $2 ESCAPE '\')`
	qCategoryInsert = `INSERT INTO blog_categories (seller_id, name, slug, description) VALUES ($1, $2, $3, $4) RETURNING id`
	qCategoryUpdate = `UPDATE blog_categories SET name = $3, slug = $4, description = $5, updated_at = now() WHERE seller_id = $1 AND id = $2`
	qCategoryDelete = `DELETE FROM blog_categories WHERE seller_id = $1 AND id = $2`
	qCategorySlug   = `SELECT EXISTS (SELECT 1 FROM blog_categories WHERE seller_id = $1 AND slug = $2 AND id <> $3)`
	qOwnCategories  = `SELECT count(*) FROM blog_categories WHERE seller_id = $1 AND id = ANY($2)`

	// postState names a post's state from its status and date.
	postState = `CASE WHEN bp.status = 'draft' THEN 'draft' WHEN bp.published_at > now() THEN 'scheduled' ELSE 'published' END`
	postCols  = `bp.id, bp.store_id, s.name AS store_name, s.slug AS store_slug, bp.title, bp.slug, bp.excerpt, bp.cover_key,
	bp.status, ` + postState + ` AS state, bp.published_at, bp.created_at, bp.updated_at,
	coalesce((SELECT jsonb_agg(jsonb_build_object('id', c.id, 'name', c.name, 'slug', c.slug) ORDER BY lower(c.name), c.id)
		FROM blog_post_categories x JOIN blog_categories c ON c.id = x.category_id WHERE x.post_id = bp.id), '[]') AS categories`
	// postsWhere is the posts of seller $1 the caller sees (scope $2, $3), in store $4 (0: any), in
	// state $5 ('' any), whose title or address matches $6 ('' any).
	postsWhere = ` FROM blog_posts bp JOIN stores s ON s.id = bp.store_id
WHERE s.owner_id = $1 AND (NOT $2 OR bp.store_id = ANY($3)) AND ($4::bigint = 0 OR bp.store_id = $4)
	AND ($5 = '' OR ` + postState + ` = $5) AND ($6 = '' OR bp.title ILIKE $6 ESCAPE '\' OR bp.slug ILIKE $6 ESCAPE '\')`
	qPosts      = `SELECT ` + postCols + `, '' AS body` + postsWhere + ` ORDER BY bp.id DESC LIMIT $7 OFFSET $8`
	qPostsCount = `SELECT count(*)` + postsWhere
	qPost       = `SELECT ` + postCols + `, bp.body FROM blog_posts bp JOIN stores s ON s.id = bp.store_id
WHERE s.owner_id = $1 AND (NOT $2 OR bp.store_id = ANY($3)) AND bp.id = $4`
	qPostInsert = `INSERT INTO blog_posts (store_id, title, slug, excerpt, body, cover_key, status, published_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`
	qPostUpdate = `UPDATE blog_posts SET store_id = $2, title = $3, slug = $4, excerpt = $5, body = $6, cover_key = $7, status = $8,
	published_at = $9, updated_at = now() WHERE id = $1
RETURNING (SELECT cover_key FROM blog_posts WHERE id = $1) AS old_cover`
	qPostDelete        = `DELETE FROM blog_posts WHERE id = $1`
	qPostSlug          = `SELECT EXISTS (SELECT 1 FROM blog_posts WHERE store_id = $1 AND slug = $2 AND id <> $3)`
	qClearCategories   = `DELETE FROM blog_post_categories WHERE post_id = $1`
	qSetCategories     = `INSERT INTO blog_post_categories (post_id, category_id) SELECT $1, unnest($2::bigint[])`
	qOwnStore          = `SELECT EXISTS (SELECT 1 FROM stores WHERE id = $1 AND owner_id = $2)`
	qCoverIsOwnedImage = `SELECT EXISTS (SELECT 1 FROM uploads WHERE blob_key = $1 AND owner_id = $2 AND status = 'ready'
	AND content_type LIKE 'image/%')`
)

type store struct{ db *sqlx.DB }

func uniqueViolation(err error) bool {
	var pe *pq.Error
	return errors.As(err, &pe) && pe.Code == "23505"
}

func pattern(q string) string {
	if q == "" {
		return ""
	}
	return listing.Inside(q)
}

func (s store) categories(ctx context.Context, seller int64, q string, limit, offset int) ([]Category, int, error) {
	out := []Category{}
	if err := s.db.SelectContext(ctx, &out, qCategories+` ORDER BY lower(c.name), c.id LIMIT $4 OFFSET $5`, seller, pattern(q), 0, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list blog categories: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, qCategoriesCount, seller, pattern(q)); err != nil {
		return nil, 0, fmt.Errorf("count blog categories: %w", err)
	}
	return out, total, nil
}

func (s store) category(ctx context.Context, seller, id int64) (Category, error) {
	var c Category
	if id <= 0 {
		return c, ErrNotFound
	}
	err := s.db.GetContext(ctx, &c, qCategories, seller, "", id)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	return c, err
}

// saveCategory creates (id 0) or changes a category of the seller.
func (s store) saveCategory(ctx context.Context, seller, id int64, in CategoryInput) (int64, error) {
	var err error
	if id == 0 {
		err = s.db.GetContext(ctx, &id, qCategoryInsert, seller, in.Name, in.Slug, in.Description)
	} else {
		var res sql.Result
		if res, err = s.db.ExecContext(ctx, qCategoryUpdate, seller, id, in.Name, in.Slug, in.Description); err == nil {
			if n, _ := res.RowsAffected(); n == 0 {
				return 0, ErrNotFound
			}
		}
	}
	if uniqueViolation(err) {
		return 0, ErrSlugTaken
	} else if err != nil {
		return 0, fmt.Errorf("save blog category: %w", err)
	}
	return id, nil
}

func (s store) removeCategory(ctx context.Context, seller, id int64) error {
	res, err := s.db.ExecContext(ctx, qCategoryDelete, seller, id)
	if err != nil {
		return fmt.Errorf("delete blog category: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func (s store) categorySlugUsed(ctx context.Context, seller int64, slug string, except int64) (bool, error) {
	var used bool
	err := s.db.GetContext(ctx, &used, qCategorySlug, seller, slug, except)
	return used, err
}

// ownCategories reports whether every one of ids is a category of the seller.
func (s store) ownCategories(ctx context.Context, seller int64, ids []int64) (bool, error) {
	var n int
	err := s.db.GetContext(ctx, &n, qOwnCategories, seller, pq.Array(ids))
	return n == len(ids), err
}

func (s store) ownStore(ctx context.Context, seller, storeID int64) (bool, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, qOwnStore, storeID, seller)
	return ok, err
}

// ownImage reports whether key is an image the seller uploaded and the renderer checked.
func (s store) ownImage(ctx context.Context, seller int64, key string) (bool, error) {
	var ok bool
	err := s.db.GetContext(ctx, &ok, qCoverIsOwnedImage, key, seller)
	return ok, err
}

func (s store) posts(ctx context.Context, sc listing.Scope, f PostFilter, limit, offset int) ([]Post, int, error) {
	args := append(sc.Args(), f.StoreID, f.State, pattern(f.Q))
	var rows []postRow
	if err := s.db.SelectContext(ctx, &rows, qPosts, append(args, limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list posts: %w", err)
	}
	out := make([]Post, len(rows))
	for i, r := range rows {
		p, err := r.post()
		if err != nil {
			return nil, 0, err
		}
		out[i] = p
	}
	var total int
	if err := s.db.GetContext(ctx, &total, qPostsCount, args...); err != nil {
		return nil, 0, fmt.Errorf("count posts: %w", err)
	}
	return out, total, nil
}

func (s store) post(ctx context.Context, sc listing.Scope, id int64) (Post, error) {
	if id <= 0 {
		return Post{}, ErrNotFound
	}
	var r postRow
	if err := s.db.GetContext(ctx, &r, qPost, append(sc.Args(), id)...); errors.Is(err, sql.ErrNoRows) {
		return Post{}, ErrNotFound
	} else if err != nil {
		return Post{}, fmt.Errorf("get post: %w", err)
	}
	return r.post()
}

// savePost creates (id 0) or changes a post with its categories in one transaction; a cover new
// to the post queues its storefront size (storesite.CoverVariant) through the outbox, whose row id
// is returned for dispatch (0 when none was queued).
func (s store) savePost(ctx context.Context, id int64, in PostInput) (int64, int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	oldCover := ""
	if id == 0 {
		err = tx.GetContext(ctx, &id, qPostInsert, in.StoreID, in.Title, in.Slug, in.Excerpt, in.Body, in.CoverKey, in.Status, in.publishedAt)
	} else {
		err = tx.GetContext(ctx, &oldCover, qPostUpdate, id, in.StoreID, in.Title, in.Slug, in.Excerpt, in.Body, in.CoverKey, in.Status, in.publishedAt)
	}
	if uniqueViolation(err) {
		return 0, 0, ErrSlugTaken
	} else if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, ErrNotFound
	} else if err != nil {
		return 0, 0, fmt.Errorf("save post: %w", err)
	}
	if _, err := tx.ExecContext(ctx, qClearCategories, id); err != nil {
		return 0, 0, fmt.Errorf("save post categories: %w", err)
	}
	if _, err := tx.ExecContext(ctx, qSetCategories, id, pq.Array(in.CategoryIDs)); err != nil {
		return 0, 0, fmt.Errorf("save post categories: %w", err)
	}
	var job int64
	if in.CoverKey != "" && in.CoverKey != oldCover {
		v, err := tasks.NewVariantJob(in.CoverKey, storesite.CoverVariant)
		if err != nil {
			return 0, 0, err
		}
		if job, err = outbox.Add(ctx, tx, v); err != nil {
			return 0, 0, err
		}
	}
	return id, job, tx.Commit()
}

func (s store) removePost(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, qPostDelete, id)
	return err
}

func (s store) postSlugUsed(ctx context.Context, storeID int64, slug string, except int64) (bool, error) {
	var used bool
	err := s.db.GetContext(ctx, &used, qPostSlug, storeID, slug, except)
	return used, err
}
