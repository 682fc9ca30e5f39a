package bulk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/platform/outbox"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Deps are what the bulk calls use.
type Deps struct {
	DB *sqlx.DB
	// Relay sends the tasks right after their rows commit (the relay's loop sends any left).
	Relay *outbox.Relay
	Log   *slog.Logger
}

// Service answers the bulk calls.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies and builds the service.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Relay == nil {
		return nil, errors.New("bulk: DB and Relay are required")
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Service{d: d, store: store{d.DB}}, nil
}

// base is the path of the multi-print-space bulk list; records and actions live under it.
const base = "/seller/bulk-campaigns/multi-print-spaces"

// Routes lists the bulk endpoints under g (mounted at /api), the campaign import's among them. Reads
// need get_campaigns, changes update_campaign.
// once makes a create safe to repeat (the Idempotency-Key header, see bff/idempotency).
func Routes(g *echo.Group, a *auth.Service, s *Service, once echo.MiddlewareFunc) {
	read := access.Permitted(access.GetCampaigns)
	write := access.Permitted(access.UpdateCampaign)
	a.Handle(g, http.MethodGet, base, read, s.handleList)
	a.Handle(g, http.MethodPost, base+"/records", write, s.handleCreate, once)
	a.Handle(g, http.MethodGet, base+"/records/:id", read, s.handleRecord)
	a.Handle(g, http.MethodGet, base+"/uploads", read, s.handleUploads)
	a.Handle(g, http.MethodGet, base+"/templates", read, s.handleTemplates)
	a.Handle(g, http.MethodGet, base+"/uploads/:id", read, s.handleUpload)
	a.Handle(g, http.MethodPost, base+"/retry", write, s.handleRetry)
	a.Handle(g, http.MethodPost, base+"/remove", write, s.handleRemove)
	a.Handle(g, http.MethodPost, base+"/start", write, s.handleStart)
	a.Handle(g, http.MethodPost, base+"/stop", write, s.handleStop)
	a.Handle(g, http.MethodPost, base+"/start-all", write, s.handleStartAll)
	a.Handle(g, http.MethodPost, base+"/stop-all", write, s.handleStopAll)
	a.Handle(g, http.MethodGet, "/seller/bulk-campaigns", read, s.handleJobs)
	a.Handle(g, http.MethodPost, "/seller/bulk-campaigns", write, s.handleCreateJobs, once)
	a.Handle(g, http.MethodGet, "/seller/bulk-campaigns/:id/log", read, s.handleJobLog)
	a.Handle(g, http.MethodGet, "/seller/campaign/bulk-v3/origin/:id", read, s.handleOrigin)
	// The campaign import (imports.go).
	a.Handle(g, http.MethodPost, "/seller/campaigns/import", write, s.handleImport)
	a.Handle(g, http.MethodGet, "/seller/campaigns/imports", read, s.handleImports)
	a.Handle(g, http.MethodGet, "/seller/campaigns/imports/:id", read, s.handleImportReport)
}

// Messages of the bulk calls.
const (
	MsgCampaignNotFound = tasks.MsgCampaignNotFound
	MsgRecordNotFound   = "Record not found"
	MsgUploadNotFound   = "Bulk upload not found"
	MsgTemplateRequired = "The template campaign id field is required."
	MsgDesignsRequired  = "The designs field is required."
	MsgDesignsText      = "The designs must be JSON, or JSON text: an array of {new_url, print_space}."
	MsgDesignsTooLong   = "The designs may not be longer than 64 KiB."
	MsgTooManyRecords   = "At most 1000 records can be created at once."
	MsgBadType          = "The type must be regular_multi_space or express_multi_space."
	MsgBadStatus        = "The status must be one of pending, queued, processing, completed, failed, stopped."
	MsgBadTime          = "The time must be one or two dates as YYYY-MM-DD."
	MsgIDsRequired      = "The ids field must list at least one record id."
	MsgNameTooLong      = "The name may not be greater than 255 characters."
	MsgSearchTooLong    = "The search may not be greater than 255 characters."
	MsgBadQuality       = "The quality must be one of good, normal, low."
	MsgCannotStart      = "Only pending or stopped records can be started."
	MsgCannotStop       = "Only pending or queued records can be stopped."
	MsgCannotRetry      = "Only failed records can be retried."
	// StatusRemoved is the status an action answers for a record it removed.
	StatusRemoved = "removed"
)

// Limits of one call.
const (
	maxRecordsPerCall = 1000
	maxIDsPerCall     = 1000
	maxDesignsBytes   = 64 << 10
	maxNameLength     = 255
)

var (
	recordStatuses = []string{tasks.BulkPending, tasks.BulkQueued, tasks.BulkProcessing,
		tasks.BulkCompleted, tasks.BulkFailed, tasks.BulkStopped}
	recordTypes = []string{tasks.BulkRegularMultiSpace, tasks.BulkExpressMultiSpace}
)

// owner is the account the caller acts in: the seller's while a team member has switched into it.
func owner(c echo.Context) int64 { return auth.Caller(c).User.ID }

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}

// pathID is the route's :id (envelope.PathID), or a 404 with msg.
func pathID(c echo.Context, msg string) (int64, error) {
	id := envelope.PathID(c)
	if id == 0 {
		return 0, envelope.Fail(http.StatusNotFound, msg)
	}
	return id, nil
}

// dispatch sends committed outbox rows now; what cannot be sent is left for the relay's loop.
func (s *Service) dispatch(ctx context.Context, ids []int64) {
	if len(ids) == 0 {
		return
	}
	if _, err := s.d.Relay.Dispatch(ctx, ids...); err != nil {
		s.d.Log.Warn("bulk tasks left for the relay", "err", err)
	}
}

// handleList is the list under /bulk-campaigns/multi-print-spaces: q, page, per_page, status[],
// type[] (default both multi-space types), time[] (a from date and an optional to date, inclusive),
// order_by (default id:desc) and bulk_upload_id.
func (s *Service) handleList(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "created_at", "updated_at", "status")
	if err != nil {
		return err
	}
	f := listFilter{Q: q.Q, Statuses: listing.Values(c, "status"), Types: listing.Values(c, "type"), Qualities: listing.Values(c, "quality")}
	for _, v := range f.Qualities {
		if !slices.Contains(qualities, v) {
			return invalid(envelope.FieldError{Field: "quality", Message: MsgBadQuality})
		}
	}
	for _, st := range f.Statuses {
		if !slices.Contains(recordStatuses, st) {
			return invalid(envelope.FieldError{Field: "status", Message: MsgBadStatus})
		}
	}
	for _, t := range f.Types {
		if !slices.Contains(recordTypes, t) {
			return invalid(envelope.FieldError{Field: "type", Message: MsgBadType})
		}
	}
	if len(f.Types) == 0 {
		f.Types = recordTypes
	}
	if f.From, f.To, err = timeRange(listing.Values(c, "time")); err != nil {
		return err
	}
	if v := c.QueryParam("bulk_upload_id"); v != "" {
		if f.BulkUploadID, err = strconv.ParseInt(v, 10, 64); err != nil || f.BulkUploadID <= 0 {
			return invalid(envelope.FieldError{Field: "bulk_upload_id", Message: MsgUploadNotFound})
		}
	}
	items, total, err := s.store.list(c.Request().Context(), owner(c), f, q.OrderBy, q.OrderAsc, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// timeRange reads time[]: a from date and an optional to date (both days included).
func timeRange(v []string) (*time.Time, *time.Time, error) {
	if len(v) == 0 {
		return nil, nil, nil
	}
	if len(v) > 2 {
		return nil, nil, invalid(envelope.FieldError{Field: "time", Message: MsgBadTime})
	}
	var out [2]*time.Time
	for i, s := range v {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, nil, invalid(envelope.FieldError{Field: "time", Message: MsgBadTime})
		}
		if i == 1 {
			d = d.AddDate(0, 0, 1)
		}
		out[i] = &d
	}
	return out[0], out[1], nil
}

// createBody creates one record (designs) or, for an import, one record per entry of records
// under a bulk upload called name. Each designs is a JSON text array of {new_url,
// print_space}; a JSON array in its place is taken as its text. start (default true) queues the
// records at once; false leaves them pending for start or start-all.
type createBody struct {
	TemplateCampaignID int64             `json:"template_campaign_id"`
	Designs            json.RawMessage   `json:"designs"`
	Records            []json.RawMessage `json:"records"`
	Name               string            `json:"name"`
	Type               string            `json:"type"`
	Start              *bool             `json:"start"`
}

// designsText is the record's designs as text, from a JSON string or a JSON array in its place,
// or the message refusing it.
func designsText(raw json.RawMessage) (string, string) {
	raw = bytes.TrimSpace(raw)
	var text string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", MsgDesignsRequired
	case raw[0] == '"':
		if err := json.Unmarshal(raw, &text); err != nil || strings.TrimSpace(text) == "" {
			return "", MsgDesignsRequired
		}
	case raw[0] == '[' || raw[0] == '{':
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return "", MsgDesignsText
		}
		text = buf.String()
	default:
		return "", MsgDesignsText
	}
	if len(text) > maxDesignsBytes {
		return "", MsgDesignsTooLong
	}
	return text, ""
}

// CreateResult is what creating records answers: the records and, for an import, its upload.
type CreateResult struct {
	Records []Record `json:"records"`
	Upload  *Upload  `json:"bulk_upload"`
}

func (s *Service) handleCreate(c echo.Context) error {
	var b createBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if b.Type == "" {
		b.Type = tasks.BulkRegularMultiSpace
	}
	var errs []envelope.FieldError
	if b.TemplateCampaignID <= 0 {
		errs = append(errs, envelope.FieldError{Field: "template_campaign_id", Message: MsgTemplateRequired})
	}
	if !slices.Contains(recordTypes, b.Type) {
		errs = append(errs, envelope.FieldError{Field: "type", Message: MsgBadType})
	}
	if utf8.RuneCountInString(b.Name) > maxNameLength {
		errs = append(errs, envelope.FieldError{Field: "name", Message: MsgNameTooLong})
	}
	var designs []string
	entries := b.Records
	field := func(int) string { return "designs" }
	if b.Records == nil {
		entries = []json.RawMessage{b.Designs}
	} else {
		field = func(i int) string { return "records[" + strconv.Itoa(i) + "]" }
	}
	switch {
	case len(entries) == 0:
		errs = append(errs, envelope.FieldError{Field: "records", Message: MsgDesignsRequired})
	case len(entries) > maxRecordsPerCall:
		errs = append(errs, envelope.FieldError{Field: "records", Message: MsgTooManyRecords})
	}
	for i, raw := range entries {
		d, msg := designsText(raw)
		if msg != "" {
			errs = append(errs, envelope.FieldError{Field: field(i), Message: msg})
		}
		designs = append(designs, d)
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	uploadName := strings.TrimSpace(b.Name)
	if b.Records != nil && uploadName == "" {
		uploadName = "Import of " + strconv.Itoa(len(designs)) + " artworks"
	}
	ctx := c.Request().Context()
	start := b.Start == nil || *b.Start
	ids, uploadID, outboxIDs, err := s.store.create(ctx, owner(c), b.TemplateCampaignID, b.Type, designs, uploadName, start)
	var over *tasks.CampaignLimitError
	switch {
	case errors.Is(err, ErrNotFound):
		return invalid(envelope.FieldError{Field: "template_campaign_id", Message: MsgCampaignNotFound})
	case errors.As(err, &over):
		return envelope.Fail(http.StatusUnprocessableEntity, over.Error())
	case err != nil:
		return err
	}
	s.dispatch(ctx, outboxIDs)
	records, err := s.store.records(ctx, owner(c), ids)
	if err != nil {
		return err
	}
	out := CreateResult{Records: records}
	if uploadID != 0 {
		u, err := s.store.upload(ctx, owner(c), uploadID)
		if err != nil {
			return err
		}
		out.Upload = &u
	}
	return envelope.Accepted(c, out)
}

func (s *Service) handleRecord(c echo.Context) error {
	id, err := pathID(c, MsgRecordNotFound)
	if err != nil {
		return err
	}
	r, err := s.store.record(c.Request().Context(), owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgRecordNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, r)
}

// maxTemplateChoices is how many campaigns the template search answers.
const maxTemplateChoices = 20

func (s *Service) handleTemplates(c echo.Context) error {
	text := strings.TrimSpace(c.QueryParam("q"))
	if len(text) > maxNameLength {
		return invalid(envelope.FieldError{Field: "q", Message: MsgSearchTooLong})
	}
	items, err := s.store.templates(c.Request().Context(), owner(c), text, maxTemplateChoices)
	if err != nil {
		return err
	}
	return envelope.OK(c, items)
}

func (s *Service) handleUploads(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	items, total, err := s.store.uploads(c.Request().Context(), owner(c), q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handleUpload(c echo.Context) error {
	id, err := pathID(c, MsgUploadNotFound)
	if err != nil {
		return err
	}
	u, err := s.store.upload(c.Request().Context(), owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgUploadNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, u)
}

func (s *Service) handleOrigin(c echo.Context) error {
	id, err := pathID(c, MsgCampaignNotFound)
	if err != nil {
		return err
	}
	o, err := s.store.origin(c.Request().Context(), owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgCampaignNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, o)
}
