package export

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/renderer/blobsource"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/imagelimit"
	"github.com/pressroom/pressroom/renderer/membudget"
	"github.com/pressroom/pressroom/renderer/mockup"
	"github.com/pressroom/pressroom/renderer/mockuptask"
	"github.com/pressroom/pressroom/renderer/pngenc"
	"github.com/pressroom/pressroom/renderer/raster"
	"github.com/pressroom/pressroom/renderer/taskrun"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Messages a failed export carries; the editor shows them as they are.
const (
	MsgMissingArtwork = "An artwork of this design is missing from storage. Please upload it again."
	MsgNotBlobKey     = "Only uploaded files can be printed; web addresses are not fetched."
	MsgCannotRender   = "This design cannot be printed."
	MsgGaveUp         = "The print file could not be made. Please save the design again."
)

// Handler runs render:export.
type Handler struct {
	db     *sqlx.DB
	store  blob.Store
	limits imagelimit.Config
	log    *slog.Logger
}

// NewHandler builds the handler; limits bounds every source decoded and the print file's pixels
// (zero fields: imagelimit's defaults, sized for a 13500x16200 print).
func NewHandler(db *sqlx.DB, store blob.Store, limits imagelimit.Config, log *slog.Logger) (*Handler, error) {
	if db == nil || store == nil {
		return nil, errors.New("export: database and blob store are required")
	}
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{db: db, store: store, limits: limits, log: log}, nil
}

// row is what the handler reads of a design.
type row struct {
	CampaignID int64  `db:"campaign_id"`
	Revision   int64  `db:"revision"`
	Status     string `db:"export_status"`
	Document   []byte `db:"design_json"`
	FileURL    string `db:"file_url"`
}

// ProcessTask renders one revision of a design. A design gone, moved to a later revision, or
// already done or failed for this revision is left as it is.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	p, err := parsePayload(t)
	if err != nil {
		return err
	}
	const load = `SELECT campaign_id, revision, export_status, design_json, file_url FROM campaign_designs WHERE id = $1`
	var r row
	err = h.db.GetContext(ctx, &r, load, p.DesignID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // the design was removed: nothing to print
	}
	if err != nil {
		return fmt.Errorf("load design %d: %w", p.DesignID, err)
	}
	if r.Revision != p.Revision || (r.Status != tasks.ExportPending && r.Status != tasks.ExportRendering) {
		return nil
	}
	const start = `UPDATE campaign_designs SET export_status = 'rendering'
WHERE id = $1 AND revision = $2 AND export_status IN ('pending', 'rendering')`
	if res, err := h.db.ExecContext(ctx, start, p.DesignID, p.Revision); err != nil {
		return fmt.Errorf("start export of design %d: %w", p.DesignID, err)
	} else if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	key := tasks.PrintKey(r.CampaignID, p.DesignID, p.Revision)
	err = h.export(ctx, p, r, key)
	var f *taskrun.Failure
	switch {
	case errors.As(err, &f):
		if ferr := h.fail(ctx, p, f.Error()); ferr != nil {
			return ferr
		}
		return fmt.Errorf("export design %d r%d: %w: %w", p.DesignID, p.Revision, err, asynq.SkipRetry)
	case err != nil:
		if queue.LastAttempt(ctx) {
			if ferr := h.fail(ctx, p, MsgGaveUp); ferr != nil {
				return errors.Join(err, ferr)
			}
		}
		return fmt.Errorf("export design %d r%d: %w", p.DesignID, p.Revision, err)
	}
	if r.FileURL != "" && r.FileURL != key {
		// The previous revision's print file is superseded; a leftover costs storage, not correctness.
		for _, old := range files(r.FileURL, true) {
			if err := h.store.Delete(ctx, old); err != nil {
				h.log.Warn("old print file not deleted", "key", old, "err", err)
			}
		}
	}
	return nil
}

// fail records the design's revision as failed with msg.
func (h *Handler) fail(ctx context.Context, p tasks.ExportPayload, msg string) error {
	const q = `UPDATE campaign_designs SET export_status = 'failed', export_error = $3
WHERE id = $1 AND revision = $2 AND export_status IN ('pending', 'rendering')`
	if _, err := h.db.ExecContext(ctx, q, p.DesignID, p.Revision, msg); err != nil {
		return fmt.Errorf("mark design %d failed: %w", p.DesignID, err)
	}
	return nil
}

// printed is a stored print file: its pixel size, byte size and DPI report (JSON).
type printed struct {
	width, height int
	size          int64
	report        []byte
}

// export stores the document's print file under key with the files beside it (files), copied from a
// finished design with the same fingerprint when there is one, else rendered, and records the result.
func (h *Handler) export(ctx context.Context, p tasks.ExportPayload, r row, key string) error {
	doc, err := design.Parse(r.Document)
	if err != nil {
		return taskrun.Fail(MsgCannotRender, err)
	}
	if err := checkSources(doc); err != nil {
		return err
	}
	fp, err := fingerprint(ctx, h.store, doc)
	if err != nil {
		return err
	}
	out, ok, err := h.reuse(ctx, fp, p.DesignID, key, len(doc.Fields()) > 0)
	if err != nil {
		return err
	}
	if !ok {
		if out, err = h.render(ctx, doc, key); err != nil {
			return err
		}
	}
	const done = `UPDATE campaign_designs SET export_status = 'done', file_url = $3, width = $4, height = $5, dpi = $6,
	file_size = $7, export_report = $8, render_key = $9, export_error = '', exported_at = now()
WHERE id = $1 AND revision = $2 AND export_status = 'rendering'`
	// The print file's mockups are queued with it, at the export's priority.
	tx, err := h.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, done, p.DesignID, p.Revision, key, out.width, out.height, doc.PrintSpace.DPI, out.size, out.report, fp)
	if err != nil {
		return fmt.Errorf("record export of design %d: %w", p.DesignID, err)
	}
	if n, _ := res.RowsAffected(); n == 1 {
		if _, err := mockuptask.Queue(ctx, tx, p.DesignID, p.Revision, taskrun.PriorityOf(ctx, queue.Interactive)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// files are the keys of what the export stores for the print file under key: the print file, its
// mockup source (tasks.MockupSourceKey) and, for a design with custom objects, its base source
// (tasks.BaseSourceKey).
func files(key string, custom bool) []string {
	keys := []string{key, tasks.MockupSourceKey(key)}
	if custom {
		keys = append(keys, tasks.BaseSourceKey(key))
	}
	return keys
}

// baseWidth is the widest base source: the base mockups are 500 px (mockup.PreviewSize) and the
// print area a part of one, so more pixels would only cost time.
const baseWidth = 1500

// render renders the document and stores it under key, with its mockup source and, for a design
// with custom objects, its base source beside it.
func (h *Handler) render(ctx context.Context, doc *design.Document, key string) (printed, error) {
	custom := len(doc.Fields()) > 0
	// The canvas and, at most, one source at print size at a time, and the base source's canvas: what
	// the render holds of the renderer's memory budget.
	held := 2 * membudget.RGBA(doc.PrintSpace.Width, doc.PrintSpace.Height)
	if custom {
		held += membudget.RGBA(raster.OutputSize(doc.PrintSpace, min(doc.PrintSpace.Width, baseWidth)))
	}
	release, err := membudget.Acquire(ctx, held)
	if err != nil {
		return printed{}, err
	}
	defer release()
	opt := raster.Options{Loader: blobsource.Loader(h.store), Limits: h.limits}
	canvas, report, err := raster.Render(ctx, doc, opt)
	if err != nil {
		return printed{}, taskrun.Classify(ctx, err, MsgMissingArtwork, MsgCannotRender)
	}
	var source bytes.Buffer
	if err := pngenc.Encode(&source, mockup.Source(canvas), pngenc.Options{}); err != nil {
		return printed{}, fmt.Errorf("encode the mockup source: %w", err)
	}
	size, err := taskrun.StoreFile(ctx, h.store, key, "image/png", "export-*.png", func(w io.Writer) error {
		return raster.Encode(w, canvas, doc, opt)
	})
	if err != nil {
		return printed{}, err
	}
	sourceKey := tasks.MockupSourceKey(key)
	if err := h.store.Put(ctx, sourceKey, &source, int64(source.Len()), "image/png"); err != nil {
		return printed{}, fmt.Errorf("store %s: %w", sourceKey, err)
	}
	if custom {
		if err := h.storeBase(ctx, doc, key, opt); err != nil {
			return printed{}, err
		}
	}
	rep, err := json.Marshal(report)
	if err != nil {
		return printed{}, err
	}
	return printed{width: report.Width, height: report.Height, size: size, report: rep}, nil
}

// storeBase stores the base source of the document (baseSource) as that of the print file under key
// (tasks.BaseSourceKey), from which render:mockup makes the base mockups (docs/mockups.md).
func (h *Handler) storeBase(ctx context.Context, doc *design.Document, key string, opt raster.Options) error {
	buf, err := baseSource(ctx, doc, opt)
	if err != nil {
		return err
	}
	baseKey := tasks.BaseSourceKey(key)
	if err := h.store.Put(ctx, baseKey, buf, int64(buf.Len()), "image/png"); err != nil {
		return fmt.Errorf("store %s: %w", baseKey, err)
	}
	return nil
}

// baseSource renders the document without its custom objects at baseWidth (the print width when
// narrower), with opt's loader and limits, as a PNG.
func baseSource(ctx context.Context, doc *design.Document, opt raster.Options) (*bytes.Buffer, error) {
	opt.Width = min(doc.PrintSpace.Width, baseWidth)
	canvas, _, err := raster.Render(ctx, doc.WithoutCustom(), opt)
	if err != nil {
		return nil, taskrun.Classify(ctx, err, MsgMissingArtwork, MsgCannotRender)
	}
	var buf bytes.Buffer
	if err := pngenc.Encode(&buf, canvas, pngenc.Options{}); err != nil {
		return nil, fmt.Errorf("encode the base source: %w", err)
	}
	return &buf, nil
}

// checkSources refuses sources the service does not read: only blob keys are printed.
func checkSources(doc *design.Document) error {
	for _, src := range doc.Sources() {
		if design.SourceKindOf(src.Value) != design.SourceBlobKey {
			return taskrun.Fail(MsgNotBlobKey, fmt.Errorf("%s: %s", src.Field, src.Value))
		}
	}
	return nil
}
