package folders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/database"
)

// Kind is a kind of file folders hold.
type Kind struct {
	// Name is the kind as asset_folders.kind stores it.
	Name string
	// path is where its folders are served under /api.
	path string
	// one and many name the files in messages.
	one, many string
	// count counts the files of folder f.
	count string
}

// The kinds of folder.
var (
	Artworks = Kind{Name: "artwork", path: "/seller/artwork-folders", one: "artwork", many: "artworks",
		count: `(SELECT count(*) FROM uploads u WHERE u.folder_id = f.id)`}
	Cliparts = Kind{Name: "clipart", path: "/seller/clipart-folders", one: "clipart", many: "cliparts",
		count: `(SELECT count(*) FROM cliparts c WHERE c.folder_id = f.id AND c.deleted_at IS NULL)`}
)

// Limits of folders.
const (
	maxName = 100
	// MaxFolders is how many folders of one kind a seller may have.
	MaxFolders = 200
)

// Messages the screens show.
const (
	MsgNotFound = "Folder not found."
	MsgName     = "The folder name is required."
	MsgTaken    = "You already have a folder with this name."
	MsgCreated  = "The folder was created."
	MsgRenamed  = "The folder was renamed."
	// MsgChoose refuses a folder_id that is not one of the seller's folders of the kind.
	MsgChoose = "Choose one of your folders."
)

// ErrNotFound: no such folder of the seller's and of the kind.
var ErrNotFound = errors.New("folder not found")

// Folder is a folder as the screens show it.
type Folder struct {
	ID        int64     `db:"id" json:"id"`
	Name      string    `db:"name" json:"name"`
	Count     int       `db:"count" json:"count"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

// Deps are what the folder routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the folder calls.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("folders: database and auth are required")
	}
	return &Service{d: d}, nil
}

// Artworks and cliparts are used in campaign designs, so their folders follow the campaign permissions.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the folder endpoints of both kinds under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	for _, k := range []Kind{Artworks, Cliparts} {
		a.Handle(g, http.MethodGet, k.path, needRead, s.handleList(k))
		a.Handle(g, http.MethodPost, k.path, needWrite, s.handleCreate(k), once)
		a.Handle(g, http.MethodPut, k.path+"/:id", needWrite, s.handleRename(k))
		a.Handle(g, http.MethodDelete, k.path+"/:id", needWrite, s.handleDelete(k))
	}
}

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

// Owned answers ErrNotFound unless folder id is one of the seller's of kind k; q may be a transaction,
// where the folder row is then locked against its deletion.
func Owned(ctx context.Context, q sqlx.QueryerContext, sellerID int64, k Kind, id int64) error {
	var got int64
	err := sqlx.GetContext(ctx, q, &got, `SELECT id FROM asset_folders WHERE id = $1 AND seller_id = $2 AND kind = $3 FOR SHARE`,
		id, sellerID, k.Name)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("find folder %d: %w", id, err)
	}
	return nil
}

// ChooseError is the 422 refusing a folder_id that is not one of the seller's.
func ChooseError() error {
	return envelope.Fail(http.StatusUnprocessableEntity, MsgChoose, envelope.FieldError{Field: "folder_id", Message: MsgChoose})
}

func (s *Service) handleList(k Kind) echo.HandlerFunc {
	q := `SELECT f.id, f.name, f.created_at, ` + k.count + ` AS count FROM asset_folders f
WHERE f.seller_id = $1 AND f.kind = $2 ORDER BY lower(f.name), f.id`
	return func(c echo.Context) error {
		out := []Folder{}
		if err := s.d.DB.SelectContext(c.Request().Context(), &out, q, seller(c), k.Name); err != nil {
			return fmt.Errorf("list folders: %w", err)
		}
		return envelope.OK(c, out)
	}
}

type nameBody struct {
	Name string `json:"name"`
}

// name binds and checks a folder's name.
func name(c echo.Context) (string, error) {
	var b nameBody
	if err := envelope.Bind(c, &b); err != nil {
		return "", err
	}
	n := strings.TrimSpace(b.Name)
	switch {
	case n == "":
		return "", envelope.Fail(http.StatusUnprocessableEntity, MsgName, envelope.FieldError{Field: "name", Message: MsgName})
	case len([]rune(n)) > maxName:
		e := envelope.TooLong("name", "name", maxName)
		return "", envelope.Fail(http.StatusUnprocessableEntity, e.Message, e)
	}
	return n, nil
}

func taken() error {
	return envelope.Fail(http.StatusUnprocessableEntity, MsgTaken, envelope.FieldError{Field: "name", Message: MsgTaken})
}

func (s *Service) handleCreate(k Kind) echo.HandlerFunc {
	return func(c echo.Context) error {
		n, err := name(c)
		if err != nil {
			return err
		}
		ctx := c.Request().Context()
		// The count and the insert in one statement: concurrent creates cannot pass the limit together
		// by more than the unique name allows (the seller's row is locked first).
		tx, err := s.d.DB.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, `SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, seller(c)); err != nil {
			return err
		}
		var count int
		if err := tx.GetContext(ctx, &count, `SELECT count(*) FROM asset_folders WHERE seller_id = $1 AND kind = $2`, seller(c), k.Name); err != nil {
			return err
		}
		if count >= MaxFolders {
			msg := fmt.Sprintf("You can have at most %d folders of %s.", MaxFolders, k.many)
			return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "name", Message: msg})
		}
		f := Folder{Name: n}
		err = tx.QueryRowxContext(ctx, `INSERT INTO asset_folders (seller_id, kind, name) VALUES ($1, $2, $3) RETURNING id, created_at`,
			seller(c), k.Name, n).Scan(&f.ID, &f.CreatedAt)
		if database.UniqueViolation(err) {
			return taken()
		}
		if err != nil {
			return fmt.Errorf("create folder: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgCreated, Data: f, Errors: []envelope.FieldError{}})
	}
}

func (s *Service) handleRename(k Kind) echo.HandlerFunc {
	q := `UPDATE asset_folders f SET name = $4 WHERE f.id = $1 AND f.seller_id = $2 AND f.kind = $3
RETURNING f.id, f.name, f.created_at, ` + k.count + ` AS count`
	return func(c echo.Context) error {
		n, err := name(c)
		if err != nil {
			return err
		}
		var f Folder
		err = s.d.DB.GetContext(c.Request().Context(), &f, q, envelope.PathID(c), seller(c), k.Name, n)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return envelope.Fail(http.StatusNotFound, MsgNotFound)
		case database.UniqueViolation(err):
			return taken()
		case err != nil:
			return fmt.Errorf("rename folder: %w", err)
		}
		return envelope.OKMessage(c, MsgRenamed, f)
	}
}

// handleDelete deletes a folder; what it held stays, outside any folder.
func (s *Service) handleDelete(k Kind) echo.HandlerFunc {
	q := `WITH gone AS (SELECT f.id, ` + k.count + ` AS count FROM asset_folders f
	WHERE f.id = $1 AND f.seller_id = $2 AND f.kind = $3 FOR UPDATE)
DELETE FROM asset_folders a USING gone WHERE a.id = gone.id RETURNING gone.count`
	return func(c echo.Context) error {
		var n int
		err := s.d.DB.GetContext(c.Request().Context(), &n, q, envelope.PathID(c), seller(c), k.Name)
		if errors.Is(err, sql.ErrNoRows) {
			return envelope.Fail(http.StatusNotFound, MsgNotFound)
		}
		if err != nil {
			return fmt.Errorf("delete folder: %w", err)
		}
		msg := "The folder was deleted."
		switch {
		case n == 1:
			msg = "The folder was deleted; its " + k.one + " is now outside any folder."
		case n > 1:
			msg = fmt.Sprintf("The folder was deleted; its %d %s are now outside any folder.", n, k.many)
		}
		return envelope.OKMessage(c, msg, map[string]int{"moved_out": n})
	}
}
