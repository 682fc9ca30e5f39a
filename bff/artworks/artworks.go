package artworks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/folders"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
)

// Deps are what the artworks routes use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Store blob.Store
	Log   *slog.Logger
}

// Service answers the artworks page.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Store == nil || d.Log == nil {
		return nil, errors.New("artworks: database, auth, blob store and log are required")
	}
	return &Service{d: d}, nil
}

// Artworks are used in campaign designs, so they follow the campaign permissions.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the artwork endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/artworks", needRead, s.handleList)
	a.Handle(g, http.MethodGet, "/seller/artworks/:id/usage", needRead, s.handleUsage)
	a.Handle(g, http.MethodPut, "/seller/artworks/:id", needWrite, s.handleMove)
	a.Handle(g, http.MethodDelete, "/seller/artworks/:id", needWrite, s.handleDelete)
}

// Messages the page shows.
const (
	MsgNotFound = "Artwork not found."
	MsgFolderID = "The folder must be one of your folders, or none."
	MsgMoved    = "The artwork was moved."
	MsgDeleted  = "The artwork was deleted."
)

// Artwork is an upload as the artworks page shows it, with the campaigns that use it.
type Artwork struct {
	uploads.Upload
	Campaigns []uploads.CampaignRef `db:"-" json:"campaigns"`
}

// ErrNotFound: no such artwork of the seller's (cliparts are not artworks).
var ErrNotFound = errors.New("artwork not found")

const (
	// notClipart keeps the cliparts' uploads off the page: they have their own library.
	notClipart = `NOT EXISTS (SELECT 1 FROM cliparts c WHERE c.upload_id = uploads.id)`
	qWhere     = `FROM uploads WHERE owner_id = $1 AND ` + notClipart + `
	AND ($2 = -1 OR ($2 = 0 AND folder_id IS NULL) OR folder_id = $2)
	AND ($3 = '' OR file_name ILIKE $3)
	AND ($4 = '' OR status = $4)`
	qCount = `SELECT count(*) ` + qWhere
	qList  = `SELECT ` + uploads.Columns + ` ` + qWhere + ` ORDER BY id DESC LIMIT $5 OFFSET $6`
	qGet   = `SELECT ` + uploads.Columns + ` FROM uploads WHERE id = $1 AND owner_id = $2 AND ` + notClipart
	qMove  = `UPDATE uploads SET folder_id = $3, updated_at = now() WHERE id = $1 AND owner_id = $2 AND ` + notClipart
	// qLock locks the artwork for its deletion: a campaign save naming it reads it FOR SHARE, so the
	// look at its uses after sees that save, and a later save finds it gone.
	qLock = `SELECT ` + uploads.Columns + ` FROM uploads WHERE id = $1 AND owner_id = $2 AND ` + notClipart + ` FOR UPDATE`
)

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func (s *Service) get(ctx context.Context, sellerID, id int64) (Artwork, error) {
	var a Artwork
	err := s.d.DB.GetContext(ctx, &a.Upload, qGet, id, sellerID)
	if errors.Is(err, sql.ErrNoRows) {
		return Artwork{}, ErrNotFound
	}
	if err != nil {
		return Artwork{}, fmt.Errorf("load artwork %d: %w", id, err)
	}
	a.FileURL = uploads.FileURL(a.Key)
	return a, nil
}

// handleList is GET /api/seller/artworks?folder_id=&q=&status=&page=&per_page=, newest first; folder_id
// 0 is the artworks outside any folder.
func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	folder := int64(-1)
	if v := c.QueryParam("folder_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 0 {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgFolderID, envelope.FieldError{Field: "folder_id", Message: MsgFolderID})
		}
		if id > 0 {
			if err := folders.Owned(ctx, s.d.DB, seller(c), folders.Artworks, id); errors.Is(err, folders.ErrNotFound) {
				return envelope.Fail(http.StatusNotFound, folders.MsgNotFound)
			} else if err != nil {
				return err
			}
		}
		folder = id
	}
	status := c.QueryParam("status")
	if status != "" && status != uploads.StatusPending && status != uploads.StatusReady && status != uploads.StatusRejected {
		msg := "The status must be pending, ready or rejected."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "status", Message: msg})
	}
	pattern := ""
	if q.Q != "" {
		pattern = listing.Inside(q.Q)
	}
	var total int
	if err := s.d.DB.GetContext(ctx, &total, qCount, seller(c), folder, pattern, status); err != nil {
		return fmt.Errorf("count artworks: %w", err)
	}
	var rows []uploads.Upload
	if err := s.d.DB.SelectContext(ctx, &rows, qList, seller(c), folder, pattern, status, q.PerPage, q.Offset()); err != nil {
		return fmt.Errorf("list artworks: %w", err)
	}
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Key
	}
	used, err := uploads.UsageOf(ctx, s.d.DB, seller(c), keys)
	if err != nil {
		return err
	}
	out := make([]Artwork, len(rows))
	for i, r := range rows {
		r.FileURL = uploads.FileURL(r.Key)
		out[i] = Artwork{Upload: r, Campaigns: used[r.Key].Campaigns}
		if out[i].Campaigns == nil {
			out[i].Campaigns = []uploads.CampaignRef{}
		}
	}
	return c.JSON(http.StatusOK, envelope.NewPage(out, total, q))
}

// handleUsage is GET /api/seller/artworks/{id}/usage: the campaigns, orders and bulk records using it.
func (s *Service) handleUsage(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.get(ctx, seller(c), envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	used, err := uploads.UsageOf(ctx, s.d.DB, seller(c), []string{a.Key})
	if err != nil {
		return err
	}
	u := used[a.Key]
	if u.Campaigns == nil {
		u.Campaigns = []uploads.CampaignRef{}
	}
	return envelope.OK(c, u)
}

type moveBody struct {
	// FolderID is the folder to file the artwork in; null takes it out of any folder.
	FolderID *int64 `json:"folder_id"`
}

// handleMove is PUT /api/seller/artworks/{id} {folder_id}.
func (s *Service) handleMove(c echo.Context) error {
	var b moveBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	id := envelope.PathID(c)
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if b.FolderID != nil {
		if err := folders.Owned(ctx, tx, seller(c), folders.Artworks, *b.FolderID); errors.Is(err, folders.ErrNotFound) {
			return folders.ChooseError()
		} else if err != nil {
			return err
		}
	}
	res, err := tx.ExecContext(ctx, qMove, id, seller(c), b.FolderID)
	if err != nil {
		return fmt.Errorf("move artwork %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	a, err := s.get(ctx, seller(c), id)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgMoved, a)
}

// handleDelete is DELETE /api/seller/artworks/{id}: refused (409) while anything uses the artwork,
// with the campaigns named; otherwise the file, its variants and its row go.
func (s *Service) handleDelete(c echo.Context) error {
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var u uploads.Upload
	err = tx.GetContext(ctx, &u, qLock, envelope.PathID(c), seller(c))
	if errors.Is(err, sql.ErrNoRows) {
		return notFound()
	}
	if err != nil {
		return fmt.Errorf("lock artwork: %w", err)
	}
	used, err := uploads.UsageOf(ctx, tx, seller(c), []string{u.Key})
	if err != nil {
		return err
	}
	if usage := used[u.Key]; usage.Used() {
		if usage.Campaigns == nil {
			usage.Campaigns = []uploads.CampaignRef{}
		}
		// The refusal carries the usage, so the page can link the campaigns it names.
		msg := InUseMessage(usage)
		return c.JSON(http.StatusConflict, envelope.Response{Success: false, Message: msg, Data: usage,
			Errors: []envelope.FieldError{{Message: msg}}})
	}
	if err := uploads.RemoveFile(ctx, s.d.Store.Delete, u.Key, ""); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM uploads WHERE id = $1`, u.ID); err != nil {
		return fmt.Errorf("delete artwork %d: %w", u.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgDeleted, map[string]int64{"id": u.ID})
}

// maxNamed is how many campaigns a refusal names before "and N more".
const maxNamed = 5

// InUseMessage says why an artwork in use cannot be deleted, naming the campaigns.
func InUseMessage(u uploads.Usage) string {
	var parts []string
	if n := len(u.Campaigns); n > 0 {
		var names []string
		for _, c := range u.Campaigns[:min(n, maxNamed)] {
			names = append(names, "“"+c.Name+"”")
		}
		word := "the campaign "
		if n > 1 {
			word = "the campaigns "
		}
		if n > maxNamed {
			names = append(names, fmt.Sprintf("%d more", n-maxNamed))
		}
		parts = append(parts, word+joinAnd(names))
	}
	if u.Orders > 0 {
		parts = append(parts, plural(u.Orders, "order", "orders")+" printed with it")
	}
	if u.Bulk > 0 {
		parts = append(parts, plural(u.Bulk, "bulk record", "bulk records")+" still being made")
	}
	msg := "This artwork cannot be deleted: it is used by " + joinAnd(parts) + "."
	if len(u.Campaigns) > 0 {
		msg += " Remove it from the campaigns first."
	}
	return msg
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
