package campaigns

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/platform/blob"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/platform/livecache"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/platform/queue"
	"github.com/pressroom/pressroom/platform/trademark"
	"github.com/pressroom/pressroom/renderer/design"
	"github.com/pressroom/pressroom/renderer/tasks"
	workertasks "github.com/pressroom/pressroom/worker/tasks"
)

// Deps are what the campaign calls use.
type Deps struct {
	DB *sqlx.DB
	// Store signs the download URLs of the print files and mockups.
	Store blob.Store
	// Relay sends the export tasks right after the save commits (the relay's loop sends any left).
	Relay *outbox.Relay
	// DownloadTTL is the lifetime of a print file's or a mockup's signed download URL (the bff's
	// PRESSROOM_FILE_URL_TTL).
	DownloadTTL time.Duration
	Log         *slog.Logger
}

// Service answers the campaign calls.
type Service struct {
	d     Deps
	store store
	// lists keeps encoded pages of the campaign list (listcache.go).
	lists *livecache.Cache[listKey, []byte]
}

// New checks the dependencies and builds the service.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Store == nil || d.Relay == nil {
		return nil, errors.New("campaigns: DB, Store and Relay are required")
	}
	if d.DownloadTTL < blob.MinTTL || d.DownloadTTL > blob.MaxTTL {
		return nil, fmt.Errorf("campaigns: download URL lifetime %s outside %s to %s", d.DownloadTTL, blob.MinTTL, blob.MaxTTL)
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{d: d, store: newStore(d.DB), lists: newListCache()}, nil
}

// Routes lists the campaign and font endpoints under g (mounted at /api). Reads need
// get_campaigns, changes update_campaign; the fonts are public (the editor and the render page
// load them like any web font).
// once makes a create safe to repeat (the Idempotency-Key header, see bff/idempotency).
func Routes(g *echo.Group, a *auth.Service, s *Service, once echo.MiddlewareFunc) {
	read := access.Permitted(access.GetCampaigns)
	write := access.Permitted(access.UpdateCampaign)
	forget := s.forgetLists
	a.Handle(g, http.MethodGet, "/seller/product-templates", read, s.handleTemplates)
	a.Handle(g, http.MethodGet, "/seller/product-templates/models", read, s.handleModels)
	a.Handle(g, http.MethodGet, "/seller/campaigns", read, s.handleList)
	a.Handle(g, http.MethodPost, "/seller/campaigns", write, s.handleCreate, once, forget)
	a.Handle(g, http.MethodGet, "/seller/campaigns/export", read, s.handleExport)
	a.Handle(g, http.MethodGet, "/seller/campaigns/slug-availability", read, s.handleSlug)
	a.Handle(g, http.MethodPut, "/seller/campaigns/:id/slug", write, s.handleSetSlug, forget)
	a.Handle(g, http.MethodPost, "/seller/campaigns/:id/duplicate", write, s.handleDuplicate, once, forget)
	a.Handle(g, http.MethodPost, "/seller/campaigns/:id/archive", write, s.handleArchive, forget)
	a.Handle(g, http.MethodPost, "/seller/campaigns/:id/unarchive", write, s.handleUnarchive, forget)
	a.Handle(g, http.MethodGet, "/seller/campaigns/:id", read, s.handleGet)
	a.Handle(g, http.MethodPut, "/seller/campaigns/:id", write, s.handleSave, forget)
	a.Handle(g, http.MethodDelete, "/seller/campaigns/:id", write, s.handleDelete, forget)
	a.Handle(g, http.MethodPost, "/seller/campaigns/:id/products", write, s.handleAddProduct, once, forget)
	a.Handle(g, http.MethodDelete, "/seller/campaigns/:id/products/:product_id", write, s.handleRemoveProduct, forget)
	a.Handle(g, http.MethodGet, "/seller/campaigns/:id/exports", read, s.handleExports)
	a.Handle(g, http.MethodGet, "/seller/campaigns/:id/mockups", read, s.handleMockups)
	a.Handle(g, http.MethodPut, "/seller/campaigns/:id/default-mockup", write, s.handleDefaultMockup, forget)
	a.Handle(g, http.MethodPost, "/seller/campaigns/:id/mockups/:mockup_id/retry", write, s.handleRetryMockup, forget)
	a.Handle(g, http.MethodPost, "/seller/campaigns/:id/calc-extra-print-cost-products", read, s.handleExtraCost)
}

// owner is the account the caller acts in: the seller's while a team member has switched into it.
func owner(c echo.Context) int64 { return auth.Caller(c).User.ID }

func notFound() error { return envelope.Fail(http.StatusNotFound, MsgNotFound) }

// campaignID reads the :id parameter; one that is no id reads as a missing campaign.
func campaignID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFound()
	}
	return id, nil
}

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}

func (s *Service) handleTemplates(c echo.Context) error {
	out, err := s.store.templates(c.Request().Context(), s.d.DB)
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

// handleModels lists the catalogue's 3D mockup templates, on which the editor previews a design live.
func (s *Service) handleModels(c echo.Context) error {
	out, err := s.store.models(c.Request().Context(), s.d.DB)
	if err != nil {
		return err
	}
	for i := range out {
		out[i].URL = uploads.FileURL(out[i].Key)
	}
	return envelope.OK(c, out)
}

func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "name", "created_at", "updated_at")
	if err != nil {
		return err
	}
	f, err := parseFilter(c, q.Q)
	if err != nil {
		return err
	}
	key := listKey{owner: owner(c), q: q, filter: f.key()}
	now := time.Now()
	body, ticket, ok := s.lists.Get(key, now)
	if !ok {
		items, total, err := s.store.list(c.Request().Context(), key.owner, f, q.OrderBy, q.OrderAsc, q.PerPage, q.Offset())
		if err != nil {
			return err
		}
		if body, err = json.Marshal(envelope.NewPage(items, total, q)); err != nil {
			return err
		}
		s.lists.Put(ticket, key, body, now.Add(listCacheTTL))
	}
	return c.JSONBlob(http.StatusOK, body)
}

// listCacheTTL bounds how long a page of the campaign list is served from the cache without a
// notification: a safety net, as every change that shows on a page is notified.
const listCacheTTL = time.Minute

type createBody struct {
	Name         string  `json:"name"`
	Kind         string  `json:"kind"`
	TemplateIDs  []int64 `json:"template_ids"`
	Personalized *bool   `json:"personalized"`
}

func (s *Service) handleCreate(c echo.Context) error {
	var b createBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if b.Kind == "" {
		b.Kind = "regular"
	}
	var errs []envelope.FieldError
	if fe := checkName(b.Name); fe != nil {
		errs = append(errs, *fe)
	}
	if !slices.Contains(kinds, b.Kind) {
		errs = append(errs, envelope.FieldError{Field: "kind", Message: MsgBadKind})
	}
	if len(b.TemplateIDs) > MaxProducts {
		errs = append(errs, envelope.FieldError{Field: "template_ids", Message: MsgTooManyProducts})
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	nc := workertasks.NewCampaign{OwnerID: owner(c), Name: b.Name, Kind: b.Kind, Personalized: b.Personalized}
	for _, id := range b.TemplateIDs {
		nc.Products = append(nc.Products, workertasks.ProductSource{FromTemplate: id})
	}
	made, err := workertasks.CreateCampaign(ctx, tx, nc, queue.Interactive)
	var over *workertasks.CampaignLimitError
	switch {
	case errors.As(err, &over):
		return envelope.Fail(http.StatusUnprocessableEntity, fmt.Sprintf(msgCampaignLimitPattern, over.Limit))
	case errors.Is(err, workertasks.ErrNoTemplate):
		return invalid(envelope.FieldError{Field: "template_ids", Message: MsgBadTemplate})
	case err != nil:
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return s.respond(c, made.ID)
}

func (s *Service) handleGet(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	return s.respond(c, id)
}

// respond answers the owner's campaign id as it is now.
func (s *Service) respond(c echo.Context, id int64) error {
	ctx := c.Request().Context()
	camp, rows, err := s.store.campaign(ctx, s.d.DB, owner(c), id, false)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	for i := range camp.Products {
		if err := camp.Products[i].withOutlines(); err != nil {
			return err
		}
	}
	camp.Designs = make([]Design, 0, len(rows))
	for _, r := range rows {
		st, err := s.exportState(ctx, r)
		if err != nil {
			return err
		}
		camp.Designs = append(camp.Designs, Design{ID: r.ID, ProductID: r.ProductID, PrintSpace: r.PrintSpace,
			DesignJSON: r.DesignJSON, Option: r.Option, Revision: r.Revision, Export: st})
	}
	if camp.Mockups, err = s.mockups(ctx, s.d.DB, id); err != nil {
		return err
	}
	if camp.Warnings, err = trademark.Warnings(ctx, s.d.DB, "name", camp.Name); err != nil {
		return err
	}
	return envelope.OK(c, camp)
}

// exportState is a design's export as the editor reads it; the print file and its report are shown
// once done, with a fresh signed download URL that names the file.
func (s *Service) exportState(ctx context.Context, r designRow) (ExportState, error) {
	st := ExportState{Status: r.Status, Width: r.Width, Height: r.Height, DPI: r.DPI, FileSize: r.FileSize, Error: r.Error}
	if r.Status != tasks.ExportDone {
		return st, nil
	}
	name := printFileName(r.CampaignName, r.ProductName, r.PrintSpace, r.Revision, r.FileURL)
	url, err := s.d.Store.SignDownload(ctx, r.FileURL, name, s.d.DownloadTTL)
	if err != nil {
		return ExportState{}, fmt.Errorf("sign print file %s: %w", r.FileURL, err)
	}
	st.FileURL, st.DownloadURL, st.FileName, st.Report = r.FileURL, url, name, r.Report
	return st, nil
}

type productInput struct {
	ID           int64 `json:"id"`
	Personalized *bool `json:"personalized"`
}

type saveBody struct {
	Name         string         `json:"name"`
	Personalized *bool          `json:"personalized"`
	Products     []productInput `json:"products"`
	Designs      []designInput  `json:"designs"`
}

// handleSave stores the editor's state: name, personalized settings and every design (designs not
// listed are removed). It refuses what the editor would refuse; a changed design gets the next
// revision and its export task, committed together. An unexpected failure reads "An error
// occurred, please try again." and is logged.
func (s *Service) handleSave(c echo.Context) error {
	err := s.save(c)
	var e *envelope.Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	s.d.Log.Error("save campaign", "err", err, "campaign", c.Param("id"),
		"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	return envelope.Fail(http.StatusInternalServerError, MsgTryAgain)
}

func (s *Service) save(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var b saveBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if fe := checkName(b.Name); fe != nil {
		return invalid(*fe)
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	camp, _, err := s.store.campaign(ctx, tx, owner(c), id, true)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	// The products as the save leaves them: each listed one with its personalized value.
	products := slices.Clone(camp.Products)
	for i, in := range b.Products {
		j := slices.IndexFunc(products, func(p Product) bool { return p.ID == in.ID })
		if j < 0 {
			return invalid(envelope.FieldError{Field: fmt.Sprintf("products[%d]", i), Message: MsgTryAgain})
		}
		if in.Personalized != nil {
			products[j].Personalized = *in.Personalized
		}
	}
	if !personalizedMatch(b.Personalized, products) {
		return invalid(envelope.FieldError{Field: "personalized", Message: MsgPersonalizedMismatch})
	}
	checked, errs, sources := checkDesigns(b.Designs, products)
	if len(errs) == 0 {
		if errs, err = s.checkSources(ctx, tx, owner(c), sources); err != nil {
			return err
		}
	}
	if len(errs) == 0 {
		errs = missingDesigns(products, checked)
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	outboxIDs, err := s.write(ctx, tx, camp.ID, b, products, checked)
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.dispatch(ctx, camp.ID, outboxIDs...)
	return s.respond(c, camp.ID)
}

// dispatch sends the committed outbox tasks ids of campaign campaignID to the queue; if Redis is
// away now it only warns, and the relay sends them later.
func (s *Service) dispatch(ctx context.Context, campaignID int64, ids ...int64) {
	if len(ids) == 0 {
		return
	}
	if _, err := s.d.Relay.Dispatch(ctx, ids...); err != nil {
		s.d.Log.Warn("tasks left for the relay", "campaign", campaignID, "outbox", ids, "err", err)
	}
}

// checkSources refuses sources that are not the account's uploads.
func (s *Service) checkSources(ctx context.Context, q sqlx.QueryerContext, ownerID int64, sources []design.Source) ([]envelope.FieldError, error) {
	var keys []string
	for _, src := range sources {
		if design.SourceKindOf(src.Value) == design.SourceBlobKey {
			keys = append(keys, src.Value)
		}
	}
	usable, err := s.store.usableSources(ctx, q, ownerID, keys)
	if err != nil {
		return nil, err
	}
	var errs []envelope.FieldError
	for _, src := range sources {
		if !usable[src.Value] {
			errs = append(errs, envelope.FieldError{Field: src.Field, Message: MsgNotYourArtwork})
		}
	}
	return errs, nil
}

// write stores a checked save in tx and returns the outbox rows of the export tasks it added.
func (s *Service) write(ctx context.Context, tx *sqlx.Tx, campaignID int64, b saveBody, products []Product, designs []checkedDesign) ([]int64, error) {
	const updCampaign = `UPDATE campaigns SET name = $2, personalized = $3, artwork_url = $4, updated_at = now() WHERE id = $1`
	if _, err := tx.ExecContext(ctx, updCampaign, campaignID, b.Name, b.Personalized, artworkOf(designs)); err != nil {
		return nil, fmt.Errorf("update campaign %d: %w", campaignID, err)
	}
	const updProduct = `UPDATE campaign_products SET personalized = $3 WHERE campaign_id = $1 AND id = $2 AND personalized <> $3`
	for _, p := range products {
		if _, err := tx.ExecContext(ctx, updProduct, campaignID, p.ID, p.Personalized); err != nil {
			return nil, fmt.Errorf("update product %d: %w", p.ID, err)
		}
	}
	keepProducts := make([]int64, len(designs))
	keepSpaces := make([]string, len(designs))
	for i, d := range designs {
		keepProducts[i], keepSpaces[i] = d.ProductID, d.PrintSpace
	}
	const remove = `DELETE FROM campaign_designs WHERE campaign_id = $1
AND (product_id, print_space) NOT IN (SELECT * FROM unnest($2::bigint[], $3::text[]))`
	if _, err := tx.ExecContext(ctx, remove, campaignID, pq.Array(keepProducts), database.TextArray(keepSpaces)); err != nil {
		return nil, fmt.Errorf("remove designs of campaign %d: %w", campaignID, err)
	}
	var outboxIDs []int64
	for _, d := range designs {
		oid, err := tasks.SaveDesign(ctx, tx, tasks.Design{CampaignID: campaignID, ProductID: d.ProductID,
			PrintSpace: d.PrintSpace, Document: d.DesignJSON, Option: d.option, Empty: len(d.doc.Objects) == 0}, queue.Interactive)
		if err != nil {
			return nil, err
		}
		if oid != 0 {
			outboxIDs = append(outboxIDs, oid)
		}
	}
	return outboxIDs, nil
}

func (s *Service) handleDelete(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	err = s.store.delete(c.Request().Context(), s.d.DB, owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The campaign has been deleted.", nil)
}

type addProductBody struct {
	TemplateID int64 `json:"template_id"`
}

func (s *Service) handleAddProduct(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var b addProductBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	err = s.inCampaign(c, id, func(ctx context.Context, tx *sqlx.Tx) error {
		var n int
		if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM campaign_products WHERE campaign_id = $1`, id); err != nil {
			return err
		}
		if n >= MaxProducts {
			return errTooManyProducts
		}
		if _, err := workertasks.AddTemplateProduct(ctx, tx, id, b.TemplateID); err != nil {
			return err
		}
		return touch(ctx, tx, id)
	})
	switch {
	case errors.Is(err, workertasks.ErrNoTemplate):
		return invalid(envelope.FieldError{Field: "template_id", Message: MsgBadTemplate})
	case errors.Is(err, errTooManyProducts):
		return invalid(envelope.FieldError{Field: "template_id", Message: MsgTooManyProducts})
	}
	if err != nil {
		return err
	}
	return s.respond(c, id)
}

func (s *Service) handleRemoveProduct(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	productID, _ := strconv.ParseInt(c.Param("product_id"), 10, 64)
	err = s.inCampaign(c, id, func(ctx context.Context, tx *sqlx.Tx) error {
		return s.store.removeProduct(ctx, tx, id, productID)
	})
	if errors.Is(err, ErrProductNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgProductNotFound)
	}
	if err != nil {
		return err
	}
	return s.respond(c, id)
}

// inCampaign runs change in a transaction holding the caller's campaign id locked.
func (s *Service) inCampaign(c echo.Context, id int64, change func(ctx context.Context, tx *sqlx.Tx) error) error {
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.store.owns(ctx, tx, owner(c), id, true); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	if err := change(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Service) handleExports(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.store.owns(ctx, s.d.DB, owner(c), id, false); errors.Is(err, ErrNotFound) {
		return notFound()
	} else if err != nil {
		return err
	}
	rows, err := designRows(ctx, s.d.DB, id)
	if err != nil {
		return err
	}
	out := make([]ExportItem, 0, len(rows))
	for _, r := range rows {
		st, err := s.exportState(ctx, r)
		if err != nil {
			return err
		}
		out = append(out, ExportItem{DesignID: r.ID, ProductID: r.ProductID, PrintSpace: r.PrintSpace, Revision: r.Revision, ExportState: st})
	}
	return envelope.OK(c, out)
}

// extraCostBody is the editor's unsaved state: how many objects each print space holds.
type extraCostBody struct {
	Designs *[]struct {
		ProductID  int64  `json:"product_id"`
		PrintSpace string `json:"print_space"`
		Objects    int    `json:"objects"`
	} `json:"designs"`
}

// handleExtraCost prices the extra print spaces of each product, from the editor's unsaved state
// when the body has designs, else from the stored designs.
func (s *Service) handleExtraCost(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var b extraCostBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	camp, rows, err := s.store.campaign(c.Request().Context(), s.d.DB, owner(c), id, false)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	designed := map[int64]map[string]bool{}
	mark := func(productID int64, space string) {
		if designed[productID] == nil {
			designed[productID] = map[string]bool{}
		}
		designed[productID][space] = true
	}
	if b.Designs != nil {
		for _, d := range *b.Designs {
			if d.Objects > 0 && hasSpace(camp.Products, d.ProductID, d.PrintSpace) {
				mark(d.ProductID, d.PrintSpace)
			}
		}
	} else {
		for _, r := range rows {
			var doc struct {
				Objects []json.RawMessage `json:"objects"`
			}
			if err := json.Unmarshal(r.DesignJSON, &doc); err != nil {
				return fmt.Errorf("design %d: %w", r.ID, err)
			}
			if len(doc.Objects) > 0 {
				mark(r.ProductID, r.PrintSpace)
			}
		}
	}
	return envelope.OK(c, extraCosts(camp.Products, designed))
}

// hasSpace reports whether the campaign's product has the print space.
func hasSpace(products []Product, productID int64, space string) bool {
	i := slices.IndexFunc(products, func(p Product) bool { return p.ID == productID })
	if i < 0 {
		return false
	}
	spaces, err := products[i].Spaces()
	return err == nil && slices.ContainsFunc(spaces, func(ps PrintSpace) bool { return ps.Name == space })
}
