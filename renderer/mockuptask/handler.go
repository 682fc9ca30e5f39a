package mockuptask

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"slices"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/blobsource"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/raster"
	"github.com/pressroom/pressroom/renderer/taskrun"
	"github.com/pressroom/pressroom/renderer/tasks"
	"github.com/pressroom/pressroom/renderer/webpenc"
)

// Messages a failed mockup carries; the editor shows them as they are.
const (
	MsgMissingPrint    = "The print file of this design is missing. Please save the design again."
	MsgMissingTemplate = "The mockup template of this product is missing or damaged."
	MsgCannotRender    = "This mockup cannot be made."
	MsgGaveUp          = "The mockup could not be made. Please save the design again."
)

// Handler runs render:mockup and render:mockup3d.
type Handler struct {
	db    *sqlx.DB
	store blob.Store
	// source reads templates, print files and models from store (blobsource).
	source raster.Loader
	mockup *mockup.Renderer
	pool   Renderer3D
	limits imagelimit.Config
	log    *slog.Logger
}

// NewHandler builds the handler; cfg bounds its template cache and every image it decodes, the print
// files included (zero fields: the defaults). pool draws the 3D mockups; without one (nil) they are
// retried until they fail.
func NewHandler(db *sqlx.DB, store blob.Store, cfg mockup.Config, pool Renderer3D, log *slog.Logger) (*Handler, error) {
	if db == nil || store == nil {
		return nil, errors.New("mockuptask: database and blob store are required")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Handler{db: db, store: store, source: blobsource.Loader(store), pool: pool, limits: cfg.Limits, log: log}
	r, err := mockup.New(cfg, h.source)
	if err != nil {
		return nil, err
	}
	h.mockup = r
	return h, nil
}

// row is what the handler reads of a campaign mockup, its template, design and product.
type row struct {
	CampaignID     int64  `db:"campaign_id"`
	ProductID      int64  `db:"product_id"`
	TemplateID     int64  `db:"mockup_template_id"`
	Revision       int64  `db:"design_revision"`
	Status         string `db:"status"`
	TemplateKey    string `db:"template_key"`
	DesignRevision int64  `db:"current_revision"`
	ExportStatus   string `db:"export_status"`
	PrintKey       string `db:"print_key"`
	Options        string `db:"options"`
	DefaultOption  string `db:"default_option"`
	// GLB is the model of a 3D template; empty for a flat one.
	GLB string `db:"glb"`
}

// ProcessTask renders one campaign mockup for one revision of its design. A row gone, moved to a
// later revision or already settled, or a design that has moved past the revision, is left as it is.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	const load = `
SELECT m.campaign_id, m.product_id, m.mockup_template_id, m.design_revision, m.status, t.file_url AS template_key,
	d.revision AS current_revision, d.export_status, d.file_url AS print_key, cp.options, cp.default_option,
	coalesce(t.design_json->>'glb', '') AS glb
FROM campaign_mockups m
JOIN mockup_templates t ON t.id = m.mockup_template_id
JOIN campaign_designs d ON d.id = m.design_id
JOIN campaign_products cp ON cp.id = m.product_id
WHERE m.id = $1`
	var r row
	err = h.db.GetContext(ctx, &r, load, p.MockupID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // the product, design or template was removed: nothing to show
	}
	if err != nil {
		return fmt.Errorf("load campaign mockup %d: %w", p.MockupID, err)
	}
	if r.Revision != p.Revision || r.Status != tasks.MockupPending || r.DesignRevision != p.Revision || r.ExportStatus != "done" {
		return nil
	}
	out, err := h.render(ctx, r)
	var f *taskrun.Failure
	switch {
	case errors.As(err, &f):
		// The row keeps the message the seller reads; the cause goes to the task's error.
		if ferr := h.fail(ctx, p, f.Msg); ferr != nil {
			return ferr
		}
		return fmt.Errorf("mockup %d r%d: %w: %w", p.MockupID, p.Revision, err, asynq.SkipRetry)
	case err != nil:
		if queue.LastAttempt(ctx) {
			if ferr := h.fail(ctx, p, MsgGaveUp); ferr != nil {
				return errors.Join(err, ferr)
			}
		}
		return fmt.Errorf("mockup %d r%d: %w", p.MockupID, p.Revision, err)
	}
	return h.record(ctx, p, r, out)
}

// made is a rendered mockup: the PNG at its full size and its WebP preview, nil from a build
// without a WebP encoder (encodePreview), and its WebP base mockup (baseMockup), nil when there is
// none.
type made struct {
	png, preview, base []byte
}

// record stores the mockup, its preview and its base mockup and marks the row done, all while the
// row is locked and still pending for this revision: a newer revision's export waits for the lock,
// so its own mockup is written after. A mockup without a base mockup clears the row's base_url and
// deletes the file an earlier revision left there.
func (h *Handler) record(ctx context.Context, p tasks.MockupPayload, r row, out made) error {
	tx, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const lock = `SELECT design_revision, status, base_url FROM campaign_mockups WHERE id = $1 FOR UPDATE`
	var cur struct {
		Revision int64  `db:"design_revision"`
		Status   string `db:"status"`
		BaseURL  string `db:"base_url"`
	}
	err = tx.GetContext(ctx, &cur, lock, p.MockupID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("lock campaign mockup %d: %w", p.MockupID, err)
	}
	if cur.Revision != p.Revision || cur.Status != tasks.MockupPending {
		return nil
	}
	key := blob.MockupKey(r.CampaignID, r.TemplateID, r.ProductID)
	if err := h.store.Put(ctx, key, bytes.NewReader(out.png), int64(len(out.png)), "image/png"); err != nil {
		return fmt.Errorf("store %s: %w", key, err)
	}
	var previewKey string // empty when there is no preview, as for a mockup made before previews
	if out.preview != nil {
		previewKey = blob.MockupPreviewKey(r.CampaignID, r.TemplateID, r.ProductID)
		if err := h.store.Put(ctx, previewKey, bytes.NewReader(out.preview), int64(len(out.preview)), "image/webp"); err != nil {
			return fmt.Errorf("store %s: %w", previewKey, err)
		}
	}
	var baseKey string // empty when there is no base mockup: a design without custom objects, a 3D mockup
	if out.base != nil {
		baseKey = blob.MockupBaseKey(r.CampaignID, r.TemplateID, r.ProductID)
		if err := h.store.Put(ctx, baseKey, bytes.NewReader(out.base), int64(len(out.base)), "image/webp"); err != nil {
			return fmt.Errorf("store %s: %w", baseKey, err)
		}
	} else if cur.BaseURL != "" {
		// The design has lost its custom objects; a leftover costs storage, not correctness.
		if err := h.store.Delete(ctx, cur.BaseURL); err != nil {
			h.log.Warn("old base mockup not deleted", "key", cur.BaseURL, "err", err)
		}
	}
	const done = `UPDATE campaign_mockups SET status = 'done', file_url = $2, preview_url = $3, base_url = $4, error = '',
	rendered_at = now(), updated_at = now()
WHERE id = $1`
	if _, err := tx.ExecContext(ctx, done, p.MockupID, key, previewKey, baseKey); err != nil {
		return fmt.Errorf("record campaign mockup %d: %w", p.MockupID, err)
	}
	return tx.Commit()
}

// render reads the template and the print file and returns the mockup as PNG bytes with its
// preview, scaled from the same pixels, and its base mockup.
func (h *Handler) render(ctx context.Context, r row) (made, error) {
	if r.GLB != "" {
		return h.render3D(ctx, r)
	}
	tpl, err := h.template(ctx, r.TemplateKey)
	if err != nil {
		return made{}, err
	}
	pf, release, err := h.printFile(ctx, r.PrintKey)
	if err != nil {
		return made{}, err
	}
	defer release()
	color, err := productColor(r.Options, r.DefaultOption)
	if err != nil {
		return made{}, taskrun.Fail(MsgCannotRender, err)
	}
	img, err := h.place(ctx, pf, tpl, mockup.Options{Color: color, Size: outputSize(tpl)})
	if err != nil {
		return made{}, err
	}
	var buf bytes.Buffer
	if err := mockup.Encode(&buf, img, mockup.FormatPNG); err != nil {
		return made{}, fmt.Errorf("encode mockup: %w", err)
	}
	preview, err := encodePreview(img)
	if err != nil {
		return made{}, err
	}
	base, err := h.baseMockup(ctx, r.PrintKey, tpl, color)
	if err != nil {
		return made{}, err
	}
	return made{png: buf.Bytes(), preview: preview, base: base}, nil
}

// place renders the mockup of img on tpl, sorting its failures as the task needs them.
func (h *Handler) place(ctx context.Context, img image.Image, tpl *mockup.Template, opt mockup.Options) (*image.RGBA, error) {
	out, err := h.mockup.Render(ctx, img, tpl, opt)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case blobsource.IsPassing(err):
		return nil, err
	case errors.Is(err, mockup.ErrInvalidTemplate):
		return nil, taskrun.Fail(MsgMissingTemplate, err)
	case err != nil:
		return nil, taskrun.Fail(MsgCannotRender, err)
	}
	return out, nil
}

// baseMockup is the base mockup of the print file under printKey as WebP: its base source
// (tasks.BaseSourceKey, the design without its custom objects) on the same template in the same
// colour, at the preview size, under which the storefront's live preview draws the buyer's own
// (docs/mockups.md). It is nil when the print file has no base source (its design has no custom
// objects, or was exported before base sources were made) and in a build without a WebP encoder,
// which could not store it.
func (h *Handler) baseMockup(ctx context.Context, printKey string, tpl *mockup.Template, color string) ([]byte, error) {
	if !webpenc.Available {
		return nil, nil
	}
	key := tasks.BaseSourceKey(printKey)
	rc, err := h.source.Open(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	src, release, err := h.decode(ctx, rc, key)
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := h.place(ctx, src, tpl, mockup.Options{Color: color, Size: baseSize(tpl)})
	if err != nil {
		return nil, err
	}
	return encodePreview(img)
}

// encodePreview is the mockup's WebP preview (mockup.EncodePreview). A build without cgo has no WebP
// encoder: retrying could not help, so the mockup is stored without a preview (nil; preview_url
// stays empty, as for a mockup made before previews), much as the renderer's service makes such a build
// fail its image variants at once rather than retry them.
func encodePreview(img image.Image) ([]byte, error) {
	if !webpenc.Available {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := mockup.EncodePreview(&buf, img); err != nil {
		return nil, fmt.Errorf("encode mockup preview: %w", err)
	}
	return buf.Bytes(), nil
}

// template reads and parses the template JSON stored under key.
func (h *Handler) template(ctx context.Context, key string) (*mockup.Template, error) {
	rc, err := h.source.Open(ctx, key)
	if err != nil {
		return nil, classifyRead(err, MsgMissingTemplate)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, mockup.MaxTemplateBytes+1))
	if err != nil {
		return nil, &blobsource.PassingError{Err: fmt.Errorf("read %s: %w", key, err)}
	}
	tpl, err := mockup.Parse(data)
	if err != nil {
		return nil, taskrun.Fail(MsgMissingTemplate, fmt.Errorf("%s: %w", key, err))
	}
	return tpl, nil
}

// printFile reads and decodes the print file stored under key: its mockup source (tasks.MockupSourceKey), or the
// print file itself when there is none, as for a print file exported before sources were made. Its pixels are
// held of the renderer's memory budget until release is called (once, when done with the image).
func (h *Handler) printFile(ctx context.Context, key string) (img image.Image, release func(), err error) {
	rc, err := h.source.Open(ctx, tasks.MockupSourceKey(key))
	if errors.Is(err, blob.ErrNotFound) {
		rc, err = h.source.Open(ctx, key)
	}
	if err != nil {
		return nil, nil, classifyRead(err, MsgMissingPrint)
	}
	return h.decode(ctx, rc, key)
}

// decode decodes the print file (or a file made of it) that rc reads, and closes rc. Its pixels are
// held of the renderer's memory budget until release is called.
func (h *Handler) decode(ctx context.Context, rc io.ReadCloser, key string) (img image.Image, release func(), err error) {
	defer rc.Close()
	img, _, release, err = imagelimit.DecodeWithin(ctx, rc, h.limits)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, nil, ctx.Err()
	case err != nil:
		return nil, nil, taskrun.Fail(MsgCannotRender, fmt.Errorf("print file %s: %w", key, err))
	}
	return img, release, nil
}

// classifyRead sorts a failed open: a missing object is a failure with msg, anything else is retried.
func classifyRead(err error, msg string) error {
	if errors.Is(err, blob.ErrNotFound) {
		return taskrun.Fail(msg, err)
	}
	return err
}

// outputSize is the mockup size, 2000 px, when the template offers it, else its largest size
// (a template drawn from a smaller photo, such as the demo templates the tests seed).
func outputSize(tpl *mockup.Template) int {
	if slices.Contains(tpl.Sizes, mockup.DefaultSize) {
		return mockup.DefaultSize
	}
	return slices.Max(tpl.Sizes)
}

// baseSize is the size a base mockup is rendered at: the preview size, 500 px, when the template
// offers it, else its mockup size (outputSize), which encodePreview scales down.
func baseSize(tpl *mockup.Template) int {
	if slices.Contains(tpl.Sizes, mockup.PreviewSize) {
		return mockup.PreviewSize
	}
	return outputSize(tpl)
}

// productColor is the hex of the product's default option among its colours ({"colors": [{name,
// hex}]}), the first colour when the default names none, and empty (the template's colour) without
// colours. A hex that is not #rgb or #rrggbb (mockup.ParseColor) is an error, for flat and 3D mockups
// alike.
func productColor(options, defaultOption string) (string, error) {
	var o struct {
		Colors []struct {
			Name string `json:"name"`
			Hex  string `json:"hex"`
		} `json:"colors"`
	}
	if err := json.Unmarshal([]byte(options), &o); err != nil {
		return "", fmt.Errorf("product options: %w", err)
	}
	if len(o.Colors) == 0 {
		return "", nil
	}
	hex := o.Colors[0].Hex
	for _, c := range o.Colors {
		if c.Name == defaultOption {
			hex = c.Hex
			break
		}
	}
	if _, err := mockup.ParseColor(hex); err != nil {
		return "", fmt.Errorf("product colour %w", err)
	}
	return hex, nil
}

// fail records the row's revision as failed with msg.
func (h *Handler) fail(ctx context.Context, p tasks.MockupPayload, msg string) error {
	const q = `UPDATE campaign_mockups SET status = 'failed', error = $3, updated_at = now()
WHERE id = $1 AND design_revision = $2 AND status = 'pending'`
	if _, err := h.db.ExecContext(ctx, q, p.MockupID, p.Revision, msg); err != nil {
		return fmt.Errorf("mark campaign mockup %d failed: %w", p.MockupID, err)
	}
	return nil
}
