package stores

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/platform/richtext"
)

// Store pages (about, shipping, ...): each belongs to one store, has an address unique in it, a
// sanitized rich-text body and the menu that links it. See docs/store-pages.md.

// MenuPositions are where a store's menu links a page.
var MenuPositions = []string{"header", "footer", "side_column"}

// Limits of a page.
const (
	maxPageTitle = 200
	// MaxBody caps a page's or a post's body as sent (HTML).
	MaxBody     = 100_000
	maxPosition = 1000
)

// Messages the page screens show.
const (
	MsgPageNotFound  = "Page not found."
	MsgPageStore     = "Choose one of your stores."
	MsgPageTitle     = "The title is required."
	MsgPageSlug      = "The page address may hold lower-case letters, digits and single hyphens, at most 80."
	MsgPageSlugTaken = "This store already has a page at this address."
	MsgMenuPosition  = "Choose where the menu links the page: header, footer or side column."
	MsgPosition      = "The order in the menu must be a whole number from 0 to 1000."
	MsgPageSaved     = "The page was saved."
	MsgPageCreated   = "The page was created."
	MsgPageDeleted   = "The page was deleted."
)

// PageInput is a store page as the seller writes it. Published defaults to true.
type PageInput struct {
	StoreID      int64  `json:"store_id"`
	Title        string `json:"title"`
	Slug         string `json:"slug"`
	Body         string `json:"body"`
	MenuPosition string `json:"menu_position"`
	Position     int    `json:"position"`
	Published    *bool  `json:"published"`
}

// check normalises the input, sanitizes the body and lists the problems that need no database.
func (in *PageInput) check() []envelope.FieldError {
	var errs []envelope.FieldError
	add := func(f, m string) { errs = append(errs, envelope.FieldError{Field: f, Message: m}) }
	in.Title = strings.TrimSpace(in.Title)
	in.Slug = strings.ToLower(strings.TrimSpace(in.Slug))
	if in.StoreID <= 0 {
		add("store_id", MsgPageStore)
	}
	if in.Title == "" {
		add("title", MsgPageTitle)
	} else if len([]rune(in.Title)) > maxPageTitle {
		errs = append(errs, envelope.TooLong("title", "title", maxPageTitle))
	}
	if !PathSlugOK(in.Slug) {
		add("slug", MsgPageSlug)
	}
	if len(in.Body) > MaxBody {
		errs = append(errs, envelope.TooLong("body", "body", MaxBody))
	}
	in.Body = richtext.Sanitize(in.Body)
	if in.MenuPosition == "" {
		in.MenuPosition = "footer"
	}
	if !slices.Contains(MenuPositions, in.MenuPosition) {
		add("menu_position", MsgMenuPosition)
	}
	if in.Position < 0 || in.Position > maxPosition {
		add("position", MsgPosition)
	}
	if in.Published == nil {
		t := true
		in.Published = &t
	}
	return errs
}

// PageSummary is a page in the list, with its store.
type PageSummary struct {
	ID           int64     `db:"id" json:"id"`
	StoreID      int64     `db:"store_id" json:"store_id"`
	StoreName    string    `db:"store_name" json:"store_name"`
	StoreSlug    string    `db:"store_slug" json:"store_slug"`
	Title        string    `db:"title" json:"title"`
	Slug         string    `db:"slug" json:"slug"`
	MenuPosition string    `db:"menu_position" json:"menu_position"`
	Position     int       `db:"position" json:"position"`
	Published    bool      `db:"published" json:"published"`
	UpdatedAt    time.Time `db:"updated_at" json:"updated_at"`
}

// Page is a store page with its body.
type Page struct {
	PageSummary
	Body string `db:"body" json:"body"`
}

const pageCols = `pg.id, pg.store_id, s.name AS store_name, s.slug AS store_slug, pg.title, pg.slug, pg.menu_position, pg.position,
	pg.published, pg.updated_at`

const (
	pagesWhere = ` FROM store_pages pg JOIN stores s ON s.id = pg.store_id
WHERE s.owner_id = $1 AND pg.store_id = ANY($2) AND ($3 = '' OR pg.title ILIKE $3 ESCAPE '\' OR pg.slug ILIKE $3 ESCAPE '\')`
	qPages      = `SELECT ` + pageCols + pagesWhere + ` ORDER BY pg.id DESC LIMIT $4 OFFSET $5`
	qPagesCount = `SELECT count(*)` + pagesWhere
	qPage       = `SELECT ` + pageCols + `, pg.body FROM store_pages pg JOIN stores s ON s.id = pg.store_id WHERE pg.id = $1 AND s.owner_id = $2`
	qPageInsert = `INSERT INTO store_pages (store_id, title, slug, body, menu_position, position, published)
VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`
	qPageUpdate = `UPDATE store_pages SET store_id = $2, title = $3, slug = $4, body = $5, menu_position = $6, position = $7,
	published = $8, updated_at = now() WHERE id = $1`
	qPageDelete   = `DELETE FROM store_pages WHERE id = $1`
	qPageSlugUsed = `SELECT EXISTS (SELECT 1 FROM store_pages WHERE store_id = $1 AND slug = $2 AND id <> $3)`
)

func (s store) pages(ctx context.Context, owner int64, storeIDs []int64, q string, limit, offset int) ([]PageSummary, int, error) {
	out := []PageSummary{}
	pattern := ""
	if q != "" {
		pattern = listing.Inside(q)
	}
	if err := s.db.SelectContext(ctx, &out, qPages, owner, pq.Array(storeIDs), pattern, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list pages: %w", err)
	}
	var total int
	if err := s.db.GetContext(ctx, &total, qPagesCount, owner, pq.Array(storeIDs), pattern); err != nil {
		return nil, 0, fmt.Errorf("count pages: %w", err)
	}
	return out, total, nil
}

func (s store) page(ctx context.Context, owner, id int64) (Page, error) {
	var p Page
	err := s.db.GetContext(ctx, &p, qPage, id, owner)
	if errors.Is(err, sql.ErrNoRows) {
		return p, ErrNotFound
	}
	return p, err
}

// savePage creates (id 0) or changes page id; ErrSlugTaken when the store has a page at the slug.
func (s store) savePage(ctx context.Context, id int64, in PageInput) (int64, error) {
	var err error
	if id == 0 {
		err = s.db.GetContext(ctx, &id, qPageInsert, in.StoreID, in.Title, in.Slug, in.Body, in.MenuPosition, in.Position, *in.Published)
	} else {
		_, err = s.db.ExecContext(ctx, qPageUpdate, id, in.StoreID, in.Title, in.Slug, in.Body, in.MenuPosition, in.Position, *in.Published)
	}
	if uniqueViolation(err) {
		return 0, ErrSlugTaken
	} else if err != nil {
		return 0, fmt.Errorf("save page: %w", err)
	}
	return id, nil
}

func (s store) removePage(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, qPageDelete, id)
	return err
}

func (s store) pageSlugUsed(ctx context.Context, storeID int64, slug string, except int64) (bool, error) {
	var used bool
	err := s.db.GetContext(ctx, &used, qPageSlugUsed, storeID, slug, except)
	return used, err
}

// visiblePage is the caller's page named by :id in a store the caller may see, or a 404.
func (s *Service) visiblePage(c echo.Context) (Page, error) {
	p, err := s.store.page(c.Request().Context(), owner(c), envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return p, envelope.Fail(http.StatusNotFound, MsgPageNotFound)
	} else if err != nil {
		return p, err
	}
	vis, err := s.visible(c)
	if err != nil {
		return p, err
	}
	if !slices.Contains(vis, p.StoreID) {
		return p, envelope.Fail(http.StatusNotFound, MsgPageNotFound)
	}
	return p, nil
}

// handlePages lists the pages of the stores the caller sees, or of one of them (store_id).
func (s *Service) handlePages(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	if v := c.QueryParam("store_id"); v != "" {
		id, _ := strconv.ParseInt(v, 10, 64)
		if !slices.Contains(vis, id) {
			return envelope.Fail(http.StatusNotFound, MsgStoreNotFound)
		}
		vis = []int64{id}
	}
	items, total, err := s.store.pages(c.Request().Context(), owner(c), vis, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handlePage(c echo.Context) error {
	p, err := s.visiblePage(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, p)
}

// handlePageSlug says whether store store_id has no page (other than except) at slug.
func (s *Service) handlePageSlug(c echo.Context) error {
	slug := strings.ToLower(strings.TrimSpace(c.QueryParam("slug")))
	storeID, _ := strconv.ParseInt(c.QueryParam("store_id"), 10, 64)
	except, _ := strconv.ParseInt(c.QueryParam("except"), 10, 64)
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	problem := ""
	switch {
	case !slices.Contains(vis, storeID):
		problem = MsgPageStore
	case !PathSlugOK(slug):
		problem = MsgPageSlug
	}
	return AnswerSlug(c, slug, problem, func() (bool, error) {
		return s.store.pageSlugUsed(c.Request().Context(), storeID, slug, except)
	}, MsgPageSlugTaken)
}

// savePage checks the caller's page and stores it as page id (0: a new one).
func (s *Service) savePage(c echo.Context, id int64) error {
	var in PageInput
	if err := envelope.Bind(c, &in); err != nil {
		return err
	}
	errs := in.check()
	vis, err := s.visible(c)
	if err != nil {
		return err
	}
	if in.StoreID > 0 && !slices.Contains(vis, in.StoreID) {
		errs = append(errs, envelope.FieldError{Field: "store_id", Message: MsgPageStore})
	}
	if len(errs) > 0 {
		return invalid(errs)
	}
	ctx := c.Request().Context()
	id, err = s.store.savePage(ctx, id, in)
	if errors.Is(err, ErrSlugTaken) {
		return invalid([]envelope.FieldError{{Field: "slug", Message: MsgPageSlugTaken}})
	} else if err != nil {
		return err
	}
	p, err := s.store.page(ctx, owner(c), id)
	if err != nil {
		return err
	}
	if c.Request().Method == http.MethodPost {
		return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgPageCreated, Data: p, Errors: []envelope.FieldError{}})
	}
	return envelope.OKMessage(c, MsgPageSaved, p)
}

func (s *Service) handleCreatePage(c echo.Context) error { return s.savePage(c, 0) }

func (s *Service) handleUpdatePage(c echo.Context) error {
	p, err := s.visiblePage(c)
	if err != nil {
		return err
	}
	return s.savePage(c, p.ID)
}

func (s *Service) handleDeletePage(c echo.Context) error {
	p, err := s.visiblePage(c)
	if err != nil {
		return err
	}
	if err := s.store.removePage(c.Request().Context(), p.ID); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgPageDeleted, nil)
}
