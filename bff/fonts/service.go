package fonts

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/periodic"
	fontfile "github.com/pressroom/pressroom/renderer/fonts"
)

// Deps are what the font routes use.
type Deps struct {
	DB    *sqlx.DB
	Auth  *auth.Service
	Store blob.Store
	Log   *slog.Logger
}

// Service answers the fonts screen, the picker and the font files.
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
	if d.DB == nil || d.Auth == nil || d.Store == nil || d.Log == nil {
		return nil, errors.New("fonts: database, auth, blob store and log are required")
	}
	return &Service{cfg: cfg, d: d, store: store{db: d.DB}}, nil
}

// Who may do what: fonts are used in campaign designs, so they follow the campaign permissions.
var (
	needRead  = access.Permitted(access.GetCampaigns)
	needWrite = access.Permitted(access.UpdateCampaign)
)

// Routes lists the font endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/fonts", access.Anyone, s.handlePublic)
	a.Handle(g, http.MethodGet, "/fonts/*", access.Anyone, s.handleFile)
	a.Handle(g, http.MethodGet, "/seller/fonts", needRead, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/fonts", needWrite, s.handleUpload, once)
	a.Handle(g, http.MethodDelete, "/seller/fonts/:id", needWrite, s.handleDelete)
}

// BodyLimitExempt are the route paths whose bodies this package caps itself: a font may be larger
// than the server's default body limit.
var BodyLimitExempt = []string{"/api/seller/fonts"}

// Messages the screen shows.
const (
	MsgNotFound    = "Font not found."
	MsgNoFile      = "Choose a font file to upload."
	MsgMultipart   = "Send the font as multipart/form-data with the field file."
	MsgUploaded    = "The font was uploaded."
	MsgDeleted     = "The font was deleted."
	MsgDeletedUsed = "The font was deleted. Campaigns that use it keep it and keep printing with it."
)

// filesPath is where font files are served: a font's URL is filesPath + its key without KeyPrefix.
const filesPath = "/api/fonts/"

// URL is where the browser loads the font file of key (a fontUrl).
func URL(key string) string { return filesPath + strings.TrimPrefix(key, fontfile.KeyPrefix) }

// SyncPlatform records the platform fonts with what their files say, so that the seller's list
// and the picker show them; run at start.
func (s *Service) SyncPlatform(ctx context.Context) error {
	list, err := fontfile.PlatformFonts()
	if err != nil {
		return err
	}
	for _, p := range list {
		i := p.Info
		if err := s.store.syncPlatform(ctx, Font{Family: i.Family, Style: i.Style, FullName: i.FullName, Weight: i.Weight,
			Italic: i.Italic, FontURL: p.Key, Size: int64(len(p.Data))}); err != nil {
			return err
		}
	}
	return nil
}

// Run removes the files of deleted fonts nothing uses, every SweepEvery, until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	return periodic.Run(ctx, s.cfg.SweepEvery, s.d.Log, s.Sweep, "font file sweep", "deleted fonts' files removed")
}

// Sweep removes the files of fonts deleted at least RemoveAfter ago that no campaign design or
// design order names, and answers how many it removed.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	ids, err := s.store.removable(ctx, time.Now().Add(-s.cfg.RemoveAfter))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		removed, err := s.store.removeFile(ctx, id, s.d.Store.Delete)
		if err != nil {
			return n, err
		}
		if removed {
			n++
		}
	}
	return n, nil
}

func withURLs(list []Font) []Font {
	for i := range list {
		list[i].URL = URL(list[i].FontURL)
	}
	return list
}

// PublicFont is a font of GET /api/fonts: Roboto (no fontUrl: it is the default) and the platform fonts.
type PublicFont struct {
	Family  string `json:"family"`
	Style   string `json:"style"`
	Weight  int    `json:"weight"`
	FontURL string `json:"font_url"`
	URL     string `json:"url"`
}

// handlePublic is GET /api/fonts.
func (s *Service) handlePublic(c echo.Context) error {
	out := []PublicFont{}
	for _, f := range fontfile.Files() {
		out = append(out, PublicFont{Family: f.Family, Style: "Regular", Weight: 400, URL: filesPath + f.Name})
	}
	list, err := s.store.platform(c.Request().Context())
	if err != nil {
		return err
	}
	for _, f := range list {
		out = append(out, PublicFont{Family: f.Family, Style: f.Style, Weight: f.Weight, FontURL: f.FontURL, URL: URL(f.FontURL)})
	}
	return envelope.OK(c, out)
}

// handleFile is GET /api/fonts/{file}: Roboto, a platform font or a seller's stored font file, cached
// for a year (a file's content never changes under its name). A deleted font's file is served until
// it is removed: the designs that name it still load it.
func (s *Service) handleFile(c echo.Context) error {
	name := c.Param("*")
	h := c.Response().Header()
	serve := func(data []byte, contentType string) error {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("X-Content-Type-Options", "nosniff")
		return c.Blob(http.StatusOK, contentType, data)
	}
	for _, f := range fontfile.Files() {
		if f.Name == name {
			return serve(f.Data, "font/ttf")
		}
	}
	key := fontfile.KeyPrefix + name
	if data, ok := fontfile.PlatformFile(key); ok {
		return serve(data, "font/ttf")
	}
	if blob.ValidateKey(key) != nil {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	ctx := c.Request().Context()
	if ok, err := s.store.servable(ctx, key); err != nil {
		return err
	} else if !ok {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	r, _, err := s.d.Store.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, fontfile.MaxFileBytes+1))
	if err != nil {
		return err
	}
	return serve(data, fontfile.ContentType(key))
}

// handleList is GET /api/seller/fonts: the platform fonts, then the seller's own (not deleted).
func (s *Service) handleList(c echo.Context) error {
	list, err := s.store.list(c.Request().Context(), auth.Caller(c).User.ID)
	if err != nil {
		return err
	}
	return envelope.OK(c, withURLs(list))
}

func fileError(status int, msg string) error {
	return envelope.Fail(status, msg, envelope.FieldError{Field: "file", Message: msg})
}

// handleUpload is POST /api/seller/fonts (multipart, field file): the font is read and checked,
// stored as TrueType or OpenType under fonts/{sellerId}/, and recorded.
func (s *Service) handleUpload(c echo.Context) error {
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, fontfile.MaxFileBytes+64<<10)
	mr, err := req.MultipartReader()
	if err != nil {
		return envelope.Fail(http.StatusBadRequest, MsgMultipart)
	}
	var data []byte
	found := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return fileError(http.StatusUnprocessableEntity, fontfile.ErrTooLarge.Error())
		}
		if err != nil {
			return envelope.Fail(http.StatusBadRequest, MsgMultipart)
		}
		if part.FormName() == "file" && !found {
			found = true
			data, err = io.ReadAll(io.LimitReader(part, fontfile.MaxFileBytes+1))
			if errors.As(err, &tooBig) || len(data) > fontfile.MaxFileBytes {
				return fileError(http.StatusUnprocessableEntity, fontfile.ErrTooLarge.Error())
			}
			if err != nil {
				return envelope.Fail(http.StatusBadRequest, MsgMultipart)
			}
		}
		part.Close()
	}
	if !found || len(data) == 0 {
		return fileError(http.StatusUnprocessableEntity, MsgNoFile)
	}
	info, sfnt, err := fontfile.Read(data)
	if err != nil {
		return fileError(http.StatusUnprocessableEntity, err.Error())
	}
	sellerID := auth.Caller(c).User.ID
	ext, ct := ".ttf", "font/ttf"
	if string(sfnt[:4]) == "OTTO" {
		ext, ct = ".otf", "font/otf"
	}
	f := Font{Family: info.Family, Style: info.Style, FullName: info.FullName, Weight: info.Weight, Italic: info.Italic,
		Format: info.Format, Size: int64(len(sfnt)), FontURL: newKey(sellerID, ext)}
	ctx := req.Context()
	if err := s.d.Store.Put(ctx, f.FontURL, bytes.NewReader(sfnt), f.Size, ct); err != nil {
		return err
	}
	if err := s.store.add(ctx, sellerID, &f); err != nil {
		if derr := s.d.Store.Delete(context.WithoutCancel(ctx), f.FontURL); derr != nil {
			s.d.Log.Warn("font file left after a failed record", "key", f.FontURL, "err", derr)
		}
		return err
	}
	f.URL = URL(f.FontURL)
	return c.JSON(http.StatusCreated, envelope.Response{Success: true, Message: MsgUploaded, Data: f})
}

// newKey is the key of a new font file of the seller: fonts/{sellerId}/{random}{ext}.
func newKey(sellerID int64, ext string) string {
	var b [16]byte
	rand.Read(b[:])
	return fontfile.KeyPrefix + strconv.FormatInt(sellerID, 10) + "/" + hex.EncodeToString(b[:]) + ext
}

// handleDelete is DELETE /api/seller/fonts/{id}: the font leaves the list and the picker; its file
// stays while designs use it (Sweep).
func (s *Service) handleDelete(c echo.Context) error {
	used, err := s.store.remove(c.Request().Context(), envelope.PathID(c), auth.Caller(c).User.ID)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err != nil {
		return err
	}
	msg := MsgDeleted
	if used {
		msg = MsgDeletedUsed
	}
	return envelope.OKMessage(c, msg, map[string]bool{"in_use": used})
}
