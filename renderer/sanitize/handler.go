package sanitize

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/renderer/dpi"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/pngdec"
	"github.com/pressroom/pressroom/renderer/pngenc"
	"github.com/pressroom/pressroom/renderer/pngmeta"
	"github.com/pressroom/pressroom/renderer/svgdoc"
	"github.com/pressroom/pressroom/renderer/svgraster"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Messages a rejected upload carries; the UI shows them as they are.
const (
	MsgNotImage  = "The file is not a PNG, JPEG or WebP image."
	MsgMissing   = "The file was not uploaded. Please try upload file again."
	MsgTooLarge  = "The file is too large."
	MsgTooBig    = "The image has too many pixels."
	MsgDamaged   = "The image is damaged or incomplete."
	statusReady  = "ready"
	statusReject = "rejected"
)

// Content types recorded for the formats accepted.
var contentTypes = map[string]string{
	imagelimit.FormatPNG:  "image/png",
	imagelimit.FormatJPEG: "image/jpeg",
	imagelimit.FormatWebP: "image/webp",
}

// Handler runs render:sanitize.
type Handler struct {
	db     *sqlx.DB
	store  blob.Store
	limits imagelimit.Config
}

// NewHandler builds the handler; limits bounds the pixels and bytes an upload may have.
func NewHandler(db *sqlx.DB, store blob.Store, limits imagelimit.Config) (*Handler, error) {
	if db == nil || store == nil {
		return nil, errors.New("sanitize: database and blob store are required")
	}
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	if limits.MaxPixels == 0 {
		limits.MaxPixels = imagelimit.DefaultMaxPixels
	}
	if limits.MaxBytes == 0 {
		limits.MaxBytes = imagelimit.DefaultMaxBytes
	}
	return &Handler{db: db, store: store, limits: limits}, nil
}

// Result is what sanitizing measured of an accepted upload.
type Result struct {
	ContentType string
	Width       int
	Height      int
	DPIX, DPIY  *float64
	ByteSize    int64
	Stripped    bool
	// BlobVersion identifies the stored object that was checked (tasks.BlobVersion).
	BlobVersion string
}

// rejection is an upload refused for what it is, not for a passing failure: it is recorded and
// the task succeeds.
type rejection struct {
	msg string
	err error
}

func (r *rejection) Error() string { return r.msg + ": " + r.err.Error() }
func (r *rejection) Unwrap() error { return r.err }

func reject(msg string, err error) error { return &rejection{msg: msg, err: err} }

// ProcessTask sanitizes one pending upload. A row already ready or rejected is left alone, and
// every step gives the same result when repeated (a stripped PNG strips to itself), so a task
// delivered twice, or killed between writing the blob and the row, ends in the same state.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	const load = `SELECT blob_key, source_key, status FROM uploads WHERE id = $1`
	var row struct {
		Key    string `db:"blob_key"`
		Source string `db:"source_key"`
		Status string `db:"status"`
	}
	err = h.db.GetContext(ctx, &row, load, p.UploadID)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("upload %d does not exist: %w", p.UploadID, asynq.SkipRetry)
	}
	if err != nil {
		return fmt.Errorf("load upload %d: %w", p.UploadID, err)
	}
	if row.Status != "pending" {
		return nil
	}
	var res Result
	if row.Source != "" {
		err = h.drawSource(ctx, row.Source, row.Key)
	}
	if err == nil {
		res, err = h.Sanitize(ctx, row.Key)
	}
	var rej *rejection
	if errors.As(err, &rej) {
		const q = `UPDATE uploads SET status = $2, message = $3, updated_at = now() WHERE id = $1 AND status = 'pending'`
		if _, err := h.db.ExecContext(ctx, q, p.UploadID, statusReject, rej.msg); err != nil {
			return fmt.Errorf("reject upload %d: %w", p.UploadID, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("sanitize upload %d: %w", p.UploadID, err)
	}
	const q = `UPDATE uploads SET status = $2, message = '', content_type = $3, width = $4, height = $5,
	dpi_x = $6, dpi_y = $7, byte_size = $8, stripped = $9, blob_version = $10, updated_at = now()
WHERE id = $1 AND status = 'pending'`
	if _, err := h.db.ExecContext(ctx, q, p.UploadID, statusReady, res.ContentType, res.Width, res.Height,
		res.DPIX, res.DPIY, res.ByteSize, res.Stripped, res.BlobVersion); err != nil {
		return fmt.Errorf("record upload %d: %w", p.UploadID, err)
	}
	return nil
}

// Sanitize checks the blob under key and applies the PNG rule to it in place, as the steps below
// say. A file refused for what it is returns an error carrying the user's message (see
// RejectionMessage); any other error is passing (storage, context) and worth a retry.
func (h *Handler) Sanitize(ctx context.Context, key string) (Result, error) {
	info, err := h.store.Stat(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return Result{}, reject(MsgMissing, err)
	}
	if err != nil {
		return Result{}, err
	}
	if info.Size > h.limits.MaxBytes {
		return Result{}, reject(MsgTooLarge, fmt.Errorf("%d bytes, limit %d", info.Size, h.limits.MaxBytes))
	}
	steps := []func(context.Context, *state) error{h.checkHeader, h.checkPixels, h.readDPI, h.applyPNGRule}
	st := &state{key: key, info: info}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if err := step(ctx, st); err != nil {
			return Result{}, err
		}
	}
	// The version recorded is that of the object now stored: the one read (which must not have
	// changed while it was checked) or the one written.
	now, err := h.store.Stat(ctx, key)
	if err != nil {
		return Result{}, err
	}
	if !st.rewritten && tasks.BlobVersion(now) != tasks.BlobVersion(info) {
		return Result{}, fmt.Errorf("%s changed while it was checked", key)
	}
	st.res.ByteSize = now.Size
	st.res.BlobVersion = tasks.BlobVersion(now)
	return st.res, nil
}

// SVGLongSide is the long side, in pixels, of the PNG an SVG clipart is drawn into: print size for
// a clipart on any product of the catalogue (4000 px is 13.3 in at 300 DPI).
const SVGLongSide = 4000

// drawSource draws the SVG at source (the clean file the bff stored, read again by svgdoc all the
// same) into a PNG under key, which the steps of Sanitize then check like any upload. The same file
// draws the same PNG, so a repeated task writes the same bytes.
func (h *Handler) drawSource(ctx context.Context, source, key string) error {
	r, err := h.open(ctx, source)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(io.LimitReader(r, svgdoc.MaxBytes+1))
	r.Close()
	if err != nil {
		return err
	}
	doc, err := svgdoc.Parse(data)
	if err != nil {
		return reject(err.Error(), err)
	}
	img, err := svgraster.Rasterize(ctx, doc, SVGLongSide)
	var refusal *svgdoc.Refusal
	if errors.As(err, &refusal) {
		return reject(refusal.Error(), err)
	}
	if err != nil {
		return fmt.Errorf("draw %s: %w", source, err)
	}
	var buf bytes.Buffer
	if err := pngenc.Encode(&buf, img, pngenc.Options{DPI: 300}); err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	if err := h.store.Put(ctx, key, &buf, int64(buf.Len()), "image/png"); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	return nil
}

// RejectionMessage is the user's message of an error Sanitize returned for a refused file, and
// false for a passing error.
func RejectionMessage(err error) (string, bool) {
	var rej *rejection
	if errors.As(err, &rej) {
		return rej.msg, true
	}
	return "", false
}

type state struct {
	key       string
	info      blob.Info
	format    string
	res       Result
	rewritten bool
}

// open reads the blob from its start.
func (h *Handler) open(ctx context.Context, key string) (io.ReadCloser, error) {
	r, _, err := h.store.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, reject(MsgMissing, err)
	}
	return r, err
}

// checkHeader sniffs the real type and reads the dimensions from the header alone, refusing
// anything over the pixel limit before a pixel is decoded.
func (h *Handler) checkHeader(ctx context.Context, st *state) error {
	r, err := h.open(ctx, st.key)
	if err != nil {
		return err
	}
	defer r.Close()
	cfg, format, err := imagelimit.DecodeConfig(r, h.limits)
	switch {
	case errors.Is(err, imagelimit.ErrUnknownFormat):
		return reject(MsgNotImage, err)
	case errors.Is(err, imagelimit.ErrTooManyPixels):
		return reject(fmt.Sprintf("%s It is %dx%d pixels; the limit is %d million pixels.", MsgTooBig, cfg.Width, cfg.Height,
			h.limits.MaxPixels/1_000_000), err)
	case errors.Is(err, imagelimit.ErrTooLarge):
		return reject(MsgTooLarge, err)
	case err != nil && ctx.Err() == nil && !isStorageError(err):
		return reject(MsgDamaged, err)
	case err != nil:
		return err
	}
	st.format = format
	st.res.ContentType = contentTypes[format]
	st.res.Width, st.res.Height = cfg.Width, cfg.Height
	return nil
}

// checkPixels reads the whole image once, so that a file whose header is fine but whose pixel
// data is cut short or corrupt is refused here rather than failing every render that uses it. A PNG
// is checked row by row without being decoded (pngdec.Check refuses exactly what decoding would), so
// a 13500x16200 upload costs a row of memory, not 875 MB; JPEG and WebP are decoded, within the
// renderer's memory budget.
func (h *Handler) checkPixels(ctx context.Context, st *state) error {
	r, err := h.open(ctx, st.key)
	if err != nil {
		return err
	}
	defer r.Close()
	if st.format == imagelimit.FormatPNG {
		err = pngdec.Check(r)
	} else {
		var release func()
		_, _, release, err = imagelimit.DecodeWithin(ctx, r, h.limits)
		release()
	}
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil || isStorageError(err):
		return err
	}
	return reject(MsgDamaged, err)
}

// isStorageError tells a failing store apart from a failing image: the image decoders wrap
// neither of these.
func isStorageError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrClosed)
}

// readDPI records the resolution a PNG or JPEG declares; WebP declares none.
func (h *Handler) readDPI(ctx context.Context, st *state) error {
	if st.format == imagelimit.FormatWebP {
		return nil
	}
	r, err := h.open(ctx, st.key)
	if err != nil {
		return err
	}
	defer r.Close()
	x, y, ok, err := dpi.Declared(r)
	if err != nil || !ok {
		// A header DecodeConfig accepted but whose density is unreadable just declares nothing.
		return nil
	}
	st.res.DPIX, st.res.DPIY = &x, &y
	return nil
}

// applyPNGRule strips text chunks from PNGs wider than pngmeta.UploadWidthThreshold (or of
// unknown width) and writes the result back under the same key; the store replaces objects
// atomically. Other files, and PNGs that had nothing to remove, are not rewritten, unless the
// stored content type is wrong (a JPEG named .png), when the same bytes are stored with the
// right one.
func (h *Handler) applyPNGRule(ctx context.Context, st *state) error {
	if st.format != imagelimit.FormatPNG {
		return h.fixContentType(ctx, st)
	}
	r, err := h.open(ctx, st.key)
	if err != nil {
		return err
	}
	defer r.Close()
	tmp, err := os.CreateTemp("", "pressroom-sanitize-*.png")
	if err != nil {
		return fmt.Errorf("temporary file: %w", err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	stripped, err := pngmeta.StripForUpload(tmp, r)
	if err != nil {
		if isStorageError(err) || ctx.Err() != nil {
			return err
		}
		return reject(MsgDamaged, err)
	}
	st.res.Stripped = stripped
	size, err := tmp.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	if !stripped || size == st.info.Size {
		// Nothing removed: Strip only ever drops chunks, so an equal size is the same file.
		return h.fixContentType(ctx, st)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := h.store.Put(ctx, st.key, tmp, size, st.res.ContentType); err != nil {
		return fmt.Errorf("store stripped %s: %w", st.key, err)
	}
	st.rewritten = true
	return nil
}

// fixContentType stores the same bytes again under the sniffed content type when the stored one
// differs.
func (h *Handler) fixContentType(ctx context.Context, st *state) error {
	if st.info.ContentType == st.res.ContentType {
		return nil
	}
	r, err := h.open(ctx, st.key)
	if err != nil {
		return err
	}
	defer r.Close()
	// Both stores keep serving the old object to this reader while the new one is written.
	if err := h.store.Put(ctx, st.key, r, st.info.Size, st.res.ContentType); err != nil {
		return err
	}
	st.rewritten = true
	return nil
}
