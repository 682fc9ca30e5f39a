package bulk

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/worker/tasks"
)

// The campaign import (docs/campaigns.md#import): a CSV or JSON file of rows, each becoming a
// campaign made in the background by the worker's bulk:record task, as a bulk record of type
// campaign_import under a bulk upload of kind campaigns. Every bad row is kept with its line and
// why; a row whose import key was imported before is skipped.

// Messages of the import.
const (
	MsgImportFile      = "Choose a CSV or JSON file of campaigns."
	MsgImportNotFound  = "Import not found"
	MsgImportCreated   = "%d of %d rows were sent to the worker."
	msgNameRequired    = "The name is required."
	msgNameTooLong     = "The name may not be longer than 255 characters."
	msgKeyTooLong      = "The key may not be longer than 200 characters."
	msgSourceNeeded    = "Give a template campaign or products."
	msgSourceBoth      = "Give a template campaign or products, not both."
	msgTooManyProducts = "A campaign can have at most 30 products."
	msgArtworkNeeded   = "The artwork is required: the key or the /api/files/ address of one of your uploads."
	msgPriceBoth       = "Give a margin or a price, not both."
	msgNoStore         = "Give a store to sell the campaign in, or leave margin and price empty."
)

// maxProducts bounds the products of one campaign, as the editor does.
const maxProducts = 30

// Import is a campaign import: its bulk upload with the file's name and rows counted by outcome
// (Counts: the records' statuses, and refused and duplicate for rows that made none).
type Import struct {
	ID        int64          `db:"id" json:"id"`
	Name      string         `db:"name" json:"name"`
	FileName  string         `db:"file_name" json:"file_name"`
	Rows      int            `db:"rows" json:"rows"`
	CreatedAt time.Time      `db:"created_at" json:"created_at"`
	Counts    map[string]int `db:"-" json:"counts"`
}

// ImportLine is what became of one row of an imported file.
type ImportLine struct {
	Line int    `db:"line" json:"line"`
	Key  string `db:"import_key" json:"key"`
	// Status is refused or duplicate (no record made), or the status of the row's record.
	Status       string  `db:"status" json:"status"`
	Message      string  `db:"message" json:"message"`
	RecordID     *int64  `db:"record_id" json:"record_id"`
	CampaignID   *int64  `db:"campaign_id" json:"campaign_id"`
	CampaignName *string `db:"campaign_name" json:"campaign_name"`
}

// ImportReport is an import with every row's outcome, by line.
type ImportReport struct {
	Import
	Lines []ImportLine `json:"lines"`
}

// Outcomes of a row that made no record.
const (
	LineRefused   = "refused"
	LineDuplicate = "duplicate"
)

// handleImport takes a multipart file (and an optional name for the import), checks every row and
// sends the good ones to the worker; it answers the report, 202 once anything was sent. A file that
// cannot be read as rows, or more campaigns than the account may have, is refused whole (422) and
// nothing is kept.
func (s *Service) handleImport(c echo.Context) error {
	fh, err := c.FormFile("file")
	if err != nil {
		return invalid(envelope.FieldError{Field: "file", Message: MsgImportFile})
	}
	name := strings.TrimSpace(c.FormValue("name"))
	if utf8.RuneCountInString(name) > maxNameLength {
		return invalid(envelope.FieldError{Field: "name", Message: MsgNameTooLong})
	}
	f, err := fh.Open()
	if err != nil {
		return invalid(envelope.FieldError{Field: "file", Message: MsgImportFile})
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxImportBytes+1))
	if err != nil {
		return fmt.Errorf("read imported file: %w", err)
	}
	rows, err := readImport(fh.Filename, data)
	var fe *errImportFile
	if errors.As(err, &fe) {
		return invalid(envelope.FieldError{Field: "file", Message: fe.msg})
	}
	if err != nil {
		return err
	}
	if name == "" {
		name = fh.Filename
	}
	ctx := c.Request().Context()
	refs, err := s.loadRefs(ctx, auth.Caller(c).User, rows)
	if err != nil {
		return err
	}
	checked := make([]checkedRow, len(rows))
	for i, r := range rows {
		checked[i] = refs.check(r)
	}
	markRepeats(checked)
	id, outboxIDs, err := s.store.createImport(ctx, owner(c), name, fh.Filename, checked)
	var over *tasks.CampaignLimitError
	if errors.As(err, &over) {
		return envelope.Fail(http.StatusUnprocessableEntity, over.Error())
	}
	if err != nil {
		return err
	}
	s.dispatch(ctx, outboxIDs)
	report, err := s.store.importReport(ctx, owner(c), id)
	if err != nil {
		return err
	}
	sent := 0
	for _, l := range report.Lines {
		if l.RecordID != nil {
			sent++
		}
	}
	status := http.StatusOK
	if sent > 0 {
		status = http.StatusAccepted
	}
	return c.JSON(status, envelope.Response{Success: true, Message: fmt.Sprintf(MsgImportCreated, sent, len(rows)), Data: report,
		Errors: []envelope.FieldError{}})
}

func (s *Service) handleImports(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	items, total, err := s.store.imports(c.Request().Context(), owner(c), q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handleImportReport(c echo.Context) error {
	id, err := pathID(c, MsgImportNotFound)
	if err != nil {
		return err
	}
	r, err := s.store.importReport(c.Request().Context(), owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgImportNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, r)
}

// importRefs are what the rows of one import name, looked up in one query each: the account's
// campaigns (by id and by address) with their products' print spaces, the catalogue's product
// templates (by id and by name, any case), the account's usable uploads and the caller's stores
// (by id and by address).
type importRefs struct {
	campaigns map[string]*refCampaign
	templates map[string]*refTemplate
	uploads   map[string]bool
	stores    map[string]*refStore
}

type refCampaign struct {
	ID     int64
	Name   string
	Spaces [][]string // each product's print space names
}

type refTemplate struct {
	ID     int64  `db:"id"`
	Name   string `db:"name"`
	Spaces string `db:"print_spaces"`
}

type refStore struct {
	ID       int64          `db:"id"`
	Slug     string         `db:"slug"`
	Name     string         `db:"name"`
	Currency money.Currency `db:"currency"`
}

// loadRefs looks up everything the rows name.
func (s *Service) loadRefs(ctx context.Context, u *auth.User, rows []importRow) (importRefs, error) {
	refs := importRefs{campaigns: map[string]*refCampaign{}, templates: map[string]*refTemplate{}, uploads: map[string]bool{},
		stores: map[string]*refStore{}}
	var campaignRefs, productRefs, artworkKeys, storeRefs []string
	for _, r := range rows {
		if r.TemplateCampaign != "" {
			campaignRefs = append(campaignRefs, r.TemplateCampaign)
		}
		for _, p := range r.Products {
			productRefs = append(productRefs, strings.ToLower(p))
		}
		if r.Artwork != "" {
			artworkKeys = append(artworkKeys, tasks.BlobKey(r.Artwork))
		}
		if r.Store != "" {
			storeRefs = append(storeRefs, r.Store)
		}
	}
	db := s.d.DB
	var camps []struct {
		ID     int64          `db:"id"`
		Slug   string         `db:"slug"`
		Name   string         `db:"name"`
		Spaces pq.StringArray `db:"spaces"`
	}
	const qCampaigns = `SELECT c.id, c.slug, c.name,
	array(SELECT p.print_spaces FROM campaign_products p WHERE p.campaign_id = c.id ORDER BY p.id) AS spaces
FROM campaigns c WHERE c.user_id = $1 AND (c.id::text = ANY($2) OR c.slug = ANY($2))`
	if err := db.SelectContext(ctx, &camps, qCampaigns, u.ID, database.TextArray(campaignRefs)); err != nil {
		return importRefs{}, fmt.Errorf("find template campaigns: %w", err)
	}
	for _, c := range camps {
		rc := &refCampaign{ID: c.ID, Name: c.Name}
		for _, raw := range c.Spaces {
			rc.Spaces = append(rc.Spaces, spaceNames(raw))
		}
		refs.campaigns[strconv.FormatInt(c.ID, 10)], refs.campaigns[c.Slug] = rc, rc
	}
	var templates []*refTemplate
	const qTemplates = `SELECT id, name, print_spaces FROM product_templates WHERE id::text = ANY($1) OR lower(name) = ANY($1)`
	if err := db.SelectContext(ctx, &templates, qTemplates, database.TextArray(productRefs)); err != nil {
		return importRefs{}, fmt.Errorf("find product templates: %w", err)
	}
	for _, t := range templates {
		refs.templates[strconv.FormatInt(t.ID, 10)], refs.templates[strings.ToLower(t.Name)] = t, t
	}
	var keys []string
	const qUploads = `SELECT blob_key FROM uploads WHERE owner_id = $1 AND blob_key = ANY($2) AND status <> 'rejected'`
	if err := db.SelectContext(ctx, &keys, qUploads, u.ID, database.TextArray(artworkKeys)); err != nil {
		return importRefs{}, fmt.Errorf("find artworks: %w", err)
	}
	for _, k := range keys {
		refs.uploads[k] = true
	}
	var all []int64
	if err := db.SelectContext(ctx, &all, `SELECT id FROM stores WHERE owner_id = $1`, u.ID); err != nil {
		return importRefs{}, fmt.Errorf("find stores: %w", err)
	}
	var stores []*refStore
	const qStores = `SELECT id, slug, name, currency FROM stores WHERE id = ANY($1) AND (id::text = ANY($2) OR slug = ANY($2))`
	if err := db.SelectContext(ctx, &stores, qStores, pq.Array(access.StoreFilter(u.Access(), all)), database.TextArray(storeRefs)); err != nil {
		return importRefs{}, fmt.Errorf("find stores: %w", err)
	}
	for _, st := range stores {
		refs.stores[strconv.FormatInt(st.ID, 10)], refs.stores[st.Slug] = st, st
	}
	return refs, nil
}

// spaceNames reads the names of a product's print spaces (its print_spaces JSON text).
func spaceNames(raw string) []string {
	var spaces []struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal([]byte(raw), &spaces) // the column's check holds it to an array
	out := make([]string, len(spaces))
	for i, s := range spaces {
		out[i] = s.Name
	}
	return out
}

// checkedRow is a row after its checks: the record to make, or the problems refusing it.
type checkedRow struct {
	Line      int
	Key       string
	Problems  []string
	Duplicate string // set when the row's key repeats an earlier row or import
	rec       importRecord
}

// importRecord is the bulk record an imported row becomes.
type importRecord struct {
	Name               string
	TemplateCampaignID *int64
	TemplateIDs        []int64
	Designs            string
	StoreID            *int64
	Price              *tasks.ImportPrice
}

// check runs every check of one row (docs/campaigns.md#import), all at once.
func (refs importRefs) check(r importRow) checkedRow {
	out := checkedRow{Line: r.Line, Key: r.Key, Problems: slices.Clone(r.problems)}
	add := func(format string, args ...any) { out.Problems = append(out.Problems, fmt.Sprintf(format, args...)) }
	rec := &out.rec
	switch {
	case r.Name == "":
		add(msgNameRequired)
	case utf8.RuneCountInString(r.Name) > maxNameLength:
		add(msgNameTooLong)
	}
	rec.Name = r.Name
	if utf8.RuneCountInString(r.Key) > maxImportKey {
		add(msgKeyTooLong)
	}
	var spaces [][]string // the print spaces of each product the campaign will have
	switch {
	case r.TemplateCampaign != "" && len(r.Products) > 0:
		add(msgSourceBoth)
	case r.TemplateCampaign != "":
		c, ok := refs.campaigns[r.TemplateCampaign]
		switch {
		case !ok:
			add("You have no campaign %q (give its id or its address).", r.TemplateCampaign)
		case len(c.Spaces) == 0:
			add("The template campaign %s has no products.", c.Name)
		default:
			rec.TemplateCampaignID, spaces = &c.ID, c.Spaces
		}
	case len(r.Products) > maxProducts:
		add(msgTooManyProducts)
	case len(r.Products) > 0:
		for _, p := range r.Products {
			t, ok := refs.templates[strings.ToLower(p)]
			if !ok {
				add("No product of the catalogue is called %q.", p)
				continue
			}
			rec.TemplateIDs = append(rec.TemplateIDs, t.ID)
			spaces = append(spaces, spaceNames(t.Spaces))
		}
	default:
		add(msgSourceNeeded)
	}
	switch {
	case r.Artwork == "":
		add(msgArtworkNeeded)
	case !refs.uploads[tasks.BlobKey(r.Artwork)]:
		add("The artwork %q is not one of your uploads: upload it on the Artworks page and give its key or its /api/files/ address.", r.Artwork)
	}
	if r.PrintSpace != "" {
		for _, names := range spaces {
			if !slices.Contains(names, r.PrintSpace) {
				add("A product of the campaign has no print space %q.", r.PrintSpace)
				break
			}
		}
	}
	type design struct {
		NewURL     string `json:"new_url"`
		PrintSpace string `json:"print_space,omitempty"`
	}
	b, _ := json.Marshal([]design{{NewURL: r.Artwork, PrintSpace: r.PrintSpace}})
	rec.Designs = string(b)
	refs.checkSale(r, rec, add)
	if out.Key == "" {
		out.Key = rowKey(r)
	}
	return out
}

// checkSale checks where the row's campaign is sold and at what price: a store of the caller with
// a margin (adjust_price) or a price (fixed_price) in its currency, or no store and neither.
func (refs importRefs) checkSale(r importRow, rec *importRecord, add func(string, ...any)) {
	if r.Store == "" {
		if r.Margin != "" || r.Price != "" {
			add(msgNoStore)
		}
		return
	}
	st, ok := refs.stores[r.Store]
	if !ok {
		add("You have no store %q (give its id or its address).", r.Store)
		return
	}
	rec.StoreID = &st.ID
	switch {
	case r.Margin != "" && r.Price != "":
		add(msgPriceBoth)
	case r.Margin != "":
		m, err := money.Parse(r.Margin, st.Currency)
		if err != nil {
			add("The margin must be an amount like 11.49 in %s: %v.", st.Currency, err)
			return
		}
		rec.Price = &tasks.ImportPrice{Mode: string(pricing.Adjust), Margin: m.Amount}
	case r.Price != "":
		p, err := money.Parse(r.Price, st.Currency)
		if err != nil {
			add("The price must be an amount like 24.99 in %s: %v.", st.Currency, err)
			return
		}
		rec.Price = &tasks.ImportPrice{Mode: string(pricing.Fixed), Price: p.Amount}
	default:
		add("Give a margin or a price to sell the campaign in %s.", st.Name)
	}
}

// rowKey is the import key of a row that gives none: made of its fields, so that the same row
// imported again has the same key.
func rowKey(r importRow) string {
	h := sha256.New()
	for _, f := range []string{r.Name, r.TemplateCampaign, strings.Join(r.Products, "|"), r.Artwork, r.PrintSpace, r.Store, r.Margin, r.Price} {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	return "row-" + hex.EncodeToString(h.Sum(nil))[:32]
}

// markRepeats marks a row whose key an earlier row of the file has.
func markRepeats(rows []checkedRow) {
	first := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if line, ok := first[r.Key]; ok {
			r.Duplicate = fmt.Sprintf("The row repeats line %d (the same import key).", line)
			continue
		}
		first[r.Key] = r.Line
	}
}

// createImport keeps an import in one transaction: its bulk upload, a refusal per bad or repeated
// row, and a queued bulk record with its task for every other row. A row whose key the account
// imported before (also by an import running at the same time) is kept as a duplicate. It returns
// the upload and the outbox rows to dispatch.
func (s store) createImport(ctx context.Context, ownerID int64, name, fileName string, rows []checkedRow) (int64, []int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, nil, err
	}
	defer tx.Rollback()
	var uploadID int64
	const qUpload = `INSERT INTO bulk_uploads (user_id, name, kind, file_name, rows) VALUES ($1, $2, 'campaigns', $3, $4) RETURNING id`
	if err := tx.GetContext(ctx, &uploadID, qUpload, ownerID, name, fileName, len(rows)); err != nil {
		return 0, nil, fmt.Errorf("create import: %w", err)
	}
	before, err := importedBefore(ctx, tx, ownerID, rows)
	if err != nil {
		return 0, nil, err
	}
	var good []checkedRow
	for i := range rows {
		r := &rows[i]
		if r.Duplicate == "" && len(r.Problems) == 0 {
			r.Duplicate = before[r.Key]
		}
		if r.Duplicate == "" && len(r.Problems) == 0 {
			good = append(good, *r)
		}
	}
	if err := underCampaignLimit(ctx, tx, ownerID, len(good)); err != nil {
		return 0, nil, err
	}
	made, err := insertImportRecords(ctx, tx, ownerID, uploadID, good)
	if err != nil {
		return 0, nil, err
	}
	var outboxIDs, templates []int64
	for i := range rows {
		r := &rows[i]
		if r.Duplicate == "" && len(r.Problems) == 0 {
			id, ok := made[r.Key]
			if !ok {
				r.Duplicate = "The row was imported at the same time by another import."
				continue
			}
			oid, err := queueRecord(ctx, tx, id, 1)
			if err != nil {
				return 0, nil, err
			}
			outboxIDs = append(outboxIDs, oid)
			if r.rec.TemplateCampaignID != nil {
				templates = append(templates, *r.rec.TemplateCampaignID)
			}
		}
	}
	if err := markTemplates(ctx, tx, templates); err != nil {
		return 0, nil, err
	}
	if err := insertRefusals(ctx, tx, uploadID, rows); err != nil {
		return 0, nil, err
	}
	return uploadID, outboxIDs, tx.Commit()
}

// importedBefore says, for each key of rows the account imported before, where from.
func importedBefore(ctx context.Context, tx *sqlx.Tx, ownerID int64, rows []checkedRow) (map[string]string, error) {
	keys := make([]string, len(rows))
	for i, r := range rows {
		keys[i] = r.Key
	}
	var found []struct {
		Key  string `db:"import_key"`
		Line int    `db:"import_line"`
		File string `db:"file_name"`
	}
	const q = `SELECT r.import_key, r.import_line, coalesce(u.file_name, '') AS file_name
FROM bulk_records r LEFT JOIN bulk_uploads u ON u.id = r.bulk_upload_id
WHERE r.user_id = $1 AND r.import_key = ANY($2)`
	if err := tx.SelectContext(ctx, &found, q, ownerID, database.TextArray(keys)); err != nil {
		return nil, fmt.Errorf("find imported rows: %w", err)
	}
	out := make(map[string]string, len(found))
	for _, f := range found {
		out[f.Key] = fmt.Sprintf("Imported before, from line %d of %s.", f.Line, f.File)
	}
	return out, nil
}

// insertImportRecords inserts the rows' records, queued at attempt 1; a key the account has
// already is left out. It returns the records made by key.
func insertImportRecords(ctx context.Context, tx *sqlx.Tx, ownerID, uploadID int64, rows []checkedRow) (map[string]int64, error) {
	if len(rows) == 0 {
		return map[string]int64{}, nil
	}
	n := len(rows)
	lines, templateCampaigns, stores := make([]int64, n), make([]int64, n), make([]int64, n)
	keys, names, designs, templateIDs, prices := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i, r := range rows {
		lines[i], keys[i], names[i], designs[i] = int64(r.Line), r.Key, r.rec.Name, r.rec.Designs
		if r.rec.TemplateCampaignID != nil {
			templateCampaigns[i] = *r.rec.TemplateCampaignID
		}
		if r.rec.StoreID != nil {
			stores[i] = *r.rec.StoreID
		}
		ids := make([]string, len(r.rec.TemplateIDs))
		for j, id := range r.rec.TemplateIDs {
			ids[j] = strconv.FormatInt(id, 10)
		}
		templateIDs[i] = "{" + strings.Join(ids, ",") + "}"
		if r.rec.Price != nil {
			b, err := json.Marshal(r.rec.Price)
			if err != nil {
				return nil, err
			}
			prices[i] = string(b)
		}
	}
	const q = `
INSERT INTO bulk_records (user_id, bulk_upload_id, type, status, attempts, import_line, import_key, name, template_campaign_id,
	template_ids, designs, store_id, price)
SELECT $1, $2, 'campaign_import', 'queued', 1, t.line, t.key, t.name, nullif(t.template_campaign, 0), t.template_ids::bigint[],
	t.designs, nullif(t.store, 0), nullif(t.price, '')::jsonb
FROM unnest($3::integer[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::bigint[], $10::text[])
	WITH ORDINALITY AS t (line, key, name, template_campaign, template_ids, designs, store, price, n)
ORDER BY t.n
ON CONFLICT (user_id, import_key) WHERE import_key IS NOT NULL DO NOTHING
RETURNING id, import_key`
	var made []struct {
		ID  int64  `db:"id"`
		Key string `db:"import_key"`
	}
	if err := tx.SelectContext(ctx, &made, q, ownerID, uploadID, pq.Array(lines), database.TextArray(keys), database.TextArray(names),
		pq.Array(templateCampaigns), database.TextArray(templateIDs), database.TextArray(designs), pq.Array(stores),
		database.TextArray(prices)); err != nil {
		return nil, fmt.Errorf("create import records: %w", err)
	}
	out := make(map[string]int64, len(made))
	for _, m := range made {
		out[m.Key] = m.ID
	}
	return out, nil
}

// insertRefusals keeps each row that made no record, with its line, key and reasons.
func insertRefusals(ctx context.Context, tx *sqlx.Tx, uploadID int64, rows []checkedRow) error {
	var lines []int64
	var keys, statuses, reasons []string
	for _, r := range rows {
		switch {
		case len(r.Problems) > 0:
			lines, keys, statuses, reasons = append(lines, int64(r.Line)), append(keys, r.Key), append(statuses, LineRefused),
				append(reasons, strings.Join(r.Problems, " "))
		case r.Duplicate != "":
			lines, keys, statuses, reasons = append(lines, int64(r.Line)), append(keys, r.Key), append(statuses, LineDuplicate),
				append(reasons, r.Duplicate)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	const q = `INSERT INTO bulk_upload_refusals (bulk_upload_id, line, import_key, status, reason)
SELECT $1, t.line, t.key, t.status, t.reason FROM unnest($2::integer[], $3::text[], $4::text[], $5::text[]) AS t (line, key, status, reason)`
	if _, err := tx.ExecContext(ctx, q, uploadID, pq.Array(lines), database.TextArray(keys), database.TextArray(statuses),
		database.TextArray(reasons)); err != nil {
		return fmt.Errorf("keep refused rows: %w", err)
	}
	return nil
}

// imports pages through the owner's imports, newest first, each counted.
func (s store) imports(ctx context.Context, ownerID int64, limit, offset int) ([]Import, int, error) {
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*) FROM bulk_uploads WHERE user_id = $1 AND kind = 'campaigns'`, ownerID); err != nil {
		return nil, 0, fmt.Errorf("count imports: %w", err)
	}
	items := []Import{}
	const q = `SELECT id, name, file_name, rows, created_at FROM bulk_uploads WHERE user_id = $1 AND kind = 'campaigns'
ORDER BY id DESC LIMIT $2 OFFSET $3`
	if err := s.db.SelectContext(ctx, &items, q, ownerID, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list imports: %w", err)
	}
	for i := range items {
		if err := s.countLines(ctx, &items[i]); err != nil {
			return nil, 0, err
		}
	}
	return items, total, nil
}

// importLines reads an import's rows: its refusals and its records, by line.
const importLines = `
SELECT line, import_key, status, reason AS message, NULL::bigint AS record_id, NULL::bigint AS campaign_id, NULL AS campaign_name
FROM bulk_upload_refusals WHERE bulk_upload_id = $1
UNION ALL
SELECT r.import_line, r.import_key, r.status, r.message, r.id, r.campaign_id, c.name
FROM bulk_records r LEFT JOIN campaigns c ON c.id = r.campaign_id WHERE r.bulk_upload_id = $1
ORDER BY 1`

// countLines fills an import's Counts: every record status and refused and duplicate, zero when
// none.
func (s store) countLines(ctx context.Context, im *Import) error {
	im.Counts = map[string]int{LineRefused: 0, LineDuplicate: 0}
	for _, st := range recordStatuses {
		im.Counts[st] = 0
	}
	var counts []struct {
		Status string `db:"status"`
		N      int    `db:"n"`
	}
	q := `SELECT status, count(*) AS n FROM (` + importLines + `) l GROUP BY status`
	if err := s.db.SelectContext(ctx, &counts, q, im.ID); err != nil {
		return fmt.Errorf("count rows of import %d: %w", im.ID, err)
	}
	for _, c := range counts {
		im.Counts[c.Status] = c.N
	}
	return nil
}

// importReport reads one of the owner's imports with every row.
func (s store) importReport(ctx context.Context, ownerID, id int64) (ImportReport, error) {
	var r ImportReport
	const q = `SELECT id, name, file_name, rows, created_at FROM bulk_uploads WHERE id = $1 AND user_id = $2 AND kind = 'campaigns'`
	if err := s.db.GetContext(ctx, &r.Import, q, id, ownerID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return ImportReport{}, ErrNotFound
		}
		return ImportReport{}, fmt.Errorf("load import %d: %w", id, err)
	}
	r.Lines = []ImportLine{}
	if err := s.db.SelectContext(ctx, &r.Lines, importLines, id); err != nil {
		return ImportReport{}, fmt.Errorf("read rows of import %d: %w", id, err)
	}
	if err := s.countLines(ctx, &r.Import); err != nil {
		return ImportReport{}, err
	}
	return r, nil
}

// markTemplates marks campaigns bulk work is made from as templates (the campaign list's
// campaign_template product type).
func markTemplates(ctx context.Context, tx sqlx.ExecerContext, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE campaigns SET template = true WHERE id = ANY($1) AND NOT template`, pq.Array(ids)); err != nil {
		return fmt.Errorf("mark template campaigns: %w", err)
	}
	return nil
}
