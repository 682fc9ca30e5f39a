package cliparts

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/folders"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/periodic"
	"github.com/pressroom/pressroom/renderer/svgdoc"
)

// Deps are what the clipart routes use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Store blob.Store
	Relay *outbox.Relay
	Log   *slog.Logger
}

// Service answers the clipart library.
type Service struct {
	cfg   Config
	d     Deps
	store store
}

// New checks the configuration and the dependencies.
func New(cfg Config, d Deps) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if d.DB == nil || d.Auth == nil || d.Store == nil || d.Relay == nil || d.Log == nil {
		return nil, errors.New("cliparts: database, auth, blob store, relay and log are required")
	}
	return &Service{cfg: cfg, d: d, store: store{db: d.DB}}, nil
}

// Cliparts are used in campaign designs, so they follow the campaign permissions.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the clipart endpoints under g (mounted at /api); the folders are package folders'.
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/cliparts", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/cliparts", needWrite, s.handleUpload, once)
	a.Handle(g, http.MethodGet, "/seller/cliparts/:id", needRead, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/cliparts/:id", needWrite, s.handleSet)
	a.Handle(g, http.MethodDelete, "/seller/cliparts/:id", needWrite, s.handleDelete)
}

// BodyLimitExempt are the route paths whose bodies this package caps itself: a clipart may be
// larger than the server's default body limit.
var BodyLimitExempt = []string{"/api/seller/cliparts"}

// Limits of an upload.
const (
	// MaxFileBytes is the largest PNG or WebP clipart; an SVG is held to svgdoc.MaxBytes.
	MaxFileBytes = 25 << 20
	maxName      = 100
)

// Messages the screens show.
const (
	MsgNotFound    = "Clipart not found."
	MsgNoFile      = "Choose a PNG, WebP or SVG file to upload."
	MsgFileType    = "Only PNG, WebP and SVG files can be cliparts."
	MsgNotPNG      = "The file is not a PNG image."
	MsgNotWebP     = "The file is not a WebP image."
	MsgTooLarge    = "The clipart file is larger than 25 MB."
	MsgMultipart   = "Send the clipart as multipart/form-data with the fields file, name and folder_id."
	MsgName        = "The name is required."
	MsgFolderID    = "The folder must be one of your folders, or none."
	MsgStatus      = "The status must be pending, ready or rejected."
	MsgUploaded    = "The clipart was uploaded. It is being checked and will be ready in a moment."
	MsgSaved       = "The clipart was saved."
	MsgDeleted     = "The clipart was deleted."
	MsgDeletedUsed = "The clipart was deleted. Campaigns and orders that use it keep it and keep printing with it."
)

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

func fieldError(status int, field, msg string) error {
	return envelope.Fail(status, msg, envelope.FieldError{Field: field, Message: msg})
}

// withURLs fills in the addresses of a clipart's file and thumbnail.
func withURLs(c Clipart) Clipart {
	c.FileURL = uploads.FileURL(c.Key)
	c.ThumbnailURL = c.FileURL + "?variant=thumb"
	return c
}

// Run removes the files of deleted cliparts nothing uses, every SweepEvery, until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	return periodic.Run(ctx, s.cfg.SweepEvery, s.d.Log, s.Sweep, "clipart file sweep", "deleted cliparts' files removed")
}

// Sweep removes the files of cliparts deleted at least RemoveAfter ago that no campaign or order
// uses, and answers how many cliparts it removed.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	ids, err := s.store.removable(ctx, time.Now().Add(-s.cfg.RemoveAfter))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		removed, err := s.store.removeFiles(ctx, id, s.d.Store.Delete)
		if err != nil {
			return n, err
		}
		if removed {
			n++
		}
	}
	return n, nil
}

// folderParam reads folder_id of the list: absent for all, 0 for outside any folder, else one of the
// seller's folders (another answers 404, as an id that does not exist).
func (s *Service) folderParam(c echo.Context) (int64, error) {
	v := c.QueryParam("folder_id")
	if v == "" {
		return allFolders, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, fieldError(http.StatusUnprocessableEntity, "folder_id", MsgFolderID)
	}
	if id == noFolder {
		return noFolder, nil
	}
	if err := folders.Owned(c.Request().Context(), s.d.DB, seller(c), folders.Cliparts, id); errors.Is(err, folders.ErrNotFound) {
		return 0, envelope.Fail(http.StatusNotFound, folders.MsgNotFound)
	} else if err != nil {
		return 0, err
	}
	return id, nil
}

// handleList is GET /api/seller/cliparts?folder_id=&q=&status=&page=&per_page=, newest first.
func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	f := filter{status: c.QueryParam("status")}
	if f.status != "" && f.status != uploads.StatusPending && f.status != uploads.StatusReady && f.status != uploads.StatusRejected {
		return fieldError(http.StatusUnprocessableEntity, "status", MsgStatus)
	}
	if f.folder, err = s.folderParam(c); err != nil {
		return err
	}
	if q.Q != "" {
		f.pattern = listing.Inside(q.Q)
	}
	items, total, err := s.store.list(c.Request().Context(), seller(c), f, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	for i := range items {
		items[i] = withURLs(items[i])
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) answer(c echo.Context, status int, msg string, id int64) error {
	cl, err := s.store.get(c.Request().Context(), seller(c), id)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	return c.JSON(status, envelope.Response{Success: true, Message: msg, Data: withURLs(cl), Errors: []envelope.FieldError{}})
}

func (s *Service) handleGet(c echo.Context) error {
	return s.answer(c, http.StatusOK, "", envelope.PathID(c))
}

// signatures are the first bytes of the formats stored as sent.
var signatures = map[string]func([]byte) bool{
	"png":  func(b []byte) bool { return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) },
	"webp": func(b []byte) bool { return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP" },
}

// upload is what the multipart form sent.
type upload struct {
	fileName, name, folder string
	format                 string
	// key is where a PNG or WebP was stored; svg is an SVG's clean doc.
	key string
	svg *svgdoc.Doc
}

// handleUpload is POST /api/seller/cliparts (multipart: file, and optionally name and folder_id, which
// must come before the file). A PNG or WebP streams into storage and the renderer checks it; an SVG
// is read and refused here, its clean copy stored for the renderer to draw.
func (s *Service) handleUpload(c echo.Context) error {
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, MaxFileBytes+64<<10)
	mr, err := req.MultipartReader()
	if err != nil {
		return envelope.Fail(http.StatusBadRequest, MsgMultipart)
	}
	ctx := req.Context()
	sellerID := seller(c)
	var up upload
	// Whatever is refused after the file was stored is removed again.
	stored := ""
	defer func() {
		if stored != "" {
			if err := s.d.Store.Delete(context.WithoutCancel(ctx), stored); err != nil {
				s.d.Log.Warn("clipart file left after a refusal", "key", stored, "err", err)
			}
		}
	}()
	found := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return readError(err)
		}
		switch part.FormName() {
		case "name":
			up.name = formValue(part)
		case "folder_id":
			up.folder = formValue(part)
		case "file":
			if found {
				break
			}
			found = true
			up.fileName = part.FileName()
			if err := s.readFile(ctx, sellerID, part, &up); err != nil {
				if up.key != "" {
					stored = up.key
				}
				return err
			}
			stored = up.key
		}
		part.Close()
	}
	if !found {
		return fieldError(http.StatusUnprocessableEntity, "file", MsgNoFile)
	}
	n := newClipart{sellerID: sellerID, format: up.format, fileName: truncate(up.fileName, 255)}
	if n.name, err = clipartName(up.name, up.fileName); err != nil {
		return err
	}
	if up.folder != "" && up.folder != "0" {
		id, err := strconv.ParseInt(up.folder, 10, 64)
		if err != nil || id <= 0 {
			return folders.ChooseError()
		}
		n.folderID = &id
	}
	if up.svg != nil {
		n.key = svgKeys(sellerID, up.fileName)
		n.sourceKey = strings.TrimSuffix(n.key, ".png") + ".svg"
		if err := s.d.Store.Put(ctx, n.sourceKey, bytes.NewReader(up.svg.Clean), int64(len(up.svg.Clean)), "image/svg+xml"); err != nil {
			return err
		}
		stored = n.sourceKey
	} else {
		n.key = up.key
	}
	id, outboxID, err := s.store.add(ctx, n)
	if errors.Is(err, folders.ErrNotFound) {
		return folders.ChooseError()
	}
	if err != nil {
		return err
	}
	stored = ""
	// Committed: if Redis is away now, the relay sends the task later.
	if _, err := s.d.Relay.Dispatch(ctx, outboxID); err != nil {
		s.d.Log.Warn("sanitize task left for the relay", "clipart_id", id, "err", err)
	}
	return s.answer(c, http.StatusCreated, MsgUploaded, id)
}

// readFile reads the file part: an SVG into a clean doc, a PNG or WebP (its signature checked) into
// storage under a new key.
func (s *Service) readFile(ctx context.Context, sellerID int64, part *multipart.Part, up *upload) error {
	up.format = strings.TrimPrefix(strings.ToLower(path.Ext(up.fileName)), ".")
	switch up.format {
	case "svg":
		data, err := io.ReadAll(io.LimitReader(part, svgdoc.MaxBytes+1))
		if err != nil {
			return readError(err)
		}
		doc, err := svgdoc.Parse(data)
		if err != nil {
			return fieldError(http.StatusUnprocessableEntity, "file", err.Error())
		}
		up.svg = doc
		return nil
	case "png", "webp":
		br := bufio.NewReaderSize(part, 64)
		head, _ := br.Peek(12)
		if !signatures[up.format](head) {
			msg := MsgNotPNG
			if up.format == "webp" {
				msg = MsgNotWebP
			}
			return fieldError(http.StatusUnprocessableEntity, "file", msg)
		}
		up.key = uploads.UserKey(sellerID, "cliparts", up.fileName)
		lr := &uploads.CappedReader{R: br, Left: MaxFileBytes}
		if err := s.d.Store.Put(ctx, up.key, lr, -1, "image/"+up.format); err != nil {
			if lr.Exceeded {
				return fieldError(http.StatusUnprocessableEntity, "file", MsgTooLarge)
			}
			return readError(err)
		}
		return nil
	}
	return fieldError(http.StatusUnprocessableEntity, "file", MsgFileType)
}

// svgKeys is the key of the PNG an SVG clipart is drawn into; its source is the same with .svg.
func svgKeys(sellerID int64, fileName string) string {
	stem := strings.TrimSuffix(path.Base(strings.ReplaceAll(fileName, "\\", "/")), path.Ext(fileName))
	return uploads.UserKey(sellerID, "cliparts", stem+".png")
}

// clipartName is the name given, or the file's name without its extension.
func clipartName(given, fileName string) (string, error) {
	n := strings.TrimSpace(given)
	if n == "" {
		base := path.Base(strings.ReplaceAll(fileName, "\\", "/"))
		n = strings.TrimSpace(strings.TrimSuffix(base, path.Ext(base)))
	}
	switch {
	case n == "":
		return "", fieldError(http.StatusUnprocessableEntity, "name", MsgName)
	case len([]rune(n)) > maxName:
		e := envelope.TooLong("name", "name", maxName)
		return "", envelope.Fail(http.StatusUnprocessableEntity, e.Message, e)
	}
	return n, nil
}

func readError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return fieldError(http.StatusUnprocessableEntity, "file", MsgTooLarge)
	}
	return envelope.Fail(http.StatusBadRequest, MsgMultipart)
}

func formValue(p *multipart.Part) string {
	b, _ := io.ReadAll(io.LimitReader(p, 1024))
	return strings.TrimSpace(string(b))
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// setBody is PUT /api/seller/cliparts/{id}: the name and the folder (null: outside any folder).
type setBody struct {
	Name     string `json:"name"`
	FolderID *int64 `json:"folder_id"`
}

func (s *Service) handleSet(c echo.Context) error {
	var b setBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	name := strings.TrimSpace(b.Name)
	switch {
	case name == "":
		return fieldError(http.StatusUnprocessableEntity, "name", MsgName)
	case len([]rune(name)) > maxName:
		e := envelope.TooLong("name", "name", maxName)
		return envelope.Fail(http.StatusUnprocessableEntity, e.Message, e)
	case b.FolderID != nil && *b.FolderID <= 0:
		return folders.ChooseError()
	}
	id := envelope.PathID(c)
	err := s.store.set(c.Request().Context(), seller(c), id, name, b.FolderID)
	switch {
	case errors.Is(err, ErrNotFound):
		return notFound()
	case errors.Is(err, folders.ErrNotFound):
		return folders.ChooseError()
	case err != nil:
		return err
	}
	return s.answer(c, http.StatusOK, MsgSaved, id)
}

// handleDelete is DELETE /api/seller/cliparts/{id}: the clipart leaves the library; its files stay
// while designs use them (Sweep).
func (s *Service) handleDelete(c echo.Context) error {
	used, err := s.store.remove(c.Request().Context(), seller(c), envelope.PathID(c))
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	msg := MsgDeleted
	if used.Used() {
		msg = MsgDeletedUsed
	}
	return envelope.OKMessage(c, msg, map[string]any{"in_use": used.Used(), "usage": used})
}
