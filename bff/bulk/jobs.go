package bulk

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/platform/database"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Job is a background bulk campaign job: the worker's
// scheduler queues it, its bulk:campaign task makes the campaign and writes the log.
type Job struct {
	ID            int64     `db:"id" json:"id"`
	CampaignID    *int64    `db:"campaign_id" json:"campaign_id"`
	CampaignName  string    `db:"campaign_name" json:"campaign_name"`
	Prefix        string    `db:"prefix" json:"prefix"`
	Suffix        string    `db:"suffix" json:"suffix"`
	Collection    string    `db:"collection" json:"collection"`
	Designs       string    `db:"designs" json:"designs"`
	Status        string    `db:"status" json:"status"`
	Message       string    `db:"message" json:"message"`
	NewCampaignID *int64    `db:"new_campaign_id" json:"new_campaign_id"`
	CreatedAt     time.Time `db:"created_at" json:"created_at"`
	UpdatedAt     time.Time `db:"updated_at" json:"updated_at"`
}

// LogLine is one line of a job's bulk log.
type LogLine struct {
	Log       string    `db:"log" json:"log"`
	CreatedAt time.Time `db:"created_at" json:"created_at"`
}

// Messages of the job calls.
const (
	MsgJobNotFound    = "Bulk campaign job not found"
	MsgOriginRequired = "The campaign id field is required."
	MsgTextTooLong    = "The campaign name, prefix, suffix and collection may not be greater than 255 characters."
	MsgTooManyJobs    = "At most 1000 jobs can be created at once."
)

// jobItem is one campaign to make: its name and designs ({new_url} or [{new_url}], JSON text or
// JSON), judged by the worker ('Cannot load designs').
type jobItem struct {
	CampaignName string          `json:"campaign_name"`
	Designs      json.RawMessage `json:"designs"`
}

// jobBody creates one job (campaign_name, designs) or one per entry of items, all from the origin
// campaign_id with the same prefix, suffix and collection.
type jobBody struct {
	CampaignID int64     `json:"campaign_id"`
	Prefix     string    `json:"prefix"`
	Suffix     string    `json:"suffix"`
	Collection string    `json:"collection"`
	Items      []jobItem `json:"items"`
	jobItem
}

func (s *Service) handleCreateJobs(c echo.Context) error {
	var b jobBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	items := b.Items
	if items == nil {
		items = []jobItem{b.jobItem}
	}
	var errs []envelope.FieldError
	if b.CampaignID <= 0 {
		errs = append(errs, envelope.FieldError{Field: "campaign_id", Message: MsgOriginRequired})
	}
	for _, t := range []string{b.Prefix, b.Suffix, b.Collection} {
		if utf8.RuneCountInString(t) > maxNameLength {
			errs = append(errs, envelope.FieldError{Message: MsgTextTooLong})
			break
		}
	}
	if len(items) == 0 || len(items) > maxRecordsPerCall {
		errs = append(errs, envelope.FieldError{Field: "items", Message: MsgTooManyJobs})
	}
	names, designs := make([]string, len(items)), make([]string, len(items))
	for i, it := range items {
		text, msg := designsText(it.Designs)
		if msg != "" {
			errs = append(errs, envelope.FieldError{Field: "items[" + strconv.Itoa(i) + "].designs", Message: msg})
		}
		if utf8.RuneCountInString(it.CampaignName) > maxNameLength {
			errs = append(errs, envelope.FieldError{Field: "items[" + strconv.Itoa(i) + "].campaign_name", Message: MsgTextTooLong})
		}
		names[i], designs[i] = it.CampaignName, text
	}
	if len(errs) > 0 {
		return invalid(errs...)
	}
	ctx := c.Request().Context()
	ids, err := s.store.createJobs(ctx, owner(c), b, names, designs)
	var over *tasks.CampaignLimitError
	switch {
	case errors.Is(err, ErrNotFound):
		return invalid(envelope.FieldError{Field: "campaign_id", Message: MsgCampaignNotFound})
	case errors.As(err, &over):
		return envelope.Fail(http.StatusUnprocessableEntity, over.Error())
	case err != nil:
		return err
	}
	jobs, err := s.store.jobs(ctx, owner(c), ids)
	if err != nil {
		return err
	}
	return envelope.Accepted(c, jobs)
}

// handleJobs is the /bulk-campaigns list: q, page, per_page, status[], time[], order_by (id:desc).
func (s *Service) handleJobs(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "created_at", "updated_at", "status")
	if err != nil {
		return err
	}
	statuses := listing.Values(c, "status")
	for _, st := range statuses {
		if !slices.Contains(recordStatuses, st) {
			return invalid(envelope.FieldError{Field: "status", Message: MsgBadStatus})
		}
	}
	from, to, err := timeRange(listing.Values(c, "time"))
	if err != nil {
		return err
	}
	items, total, err := s.store.listJobs(c.Request().Context(), owner(c), q.Q, statuses, from, to, q.OrderBy, q.OrderAsc, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

func (s *Service) handleJobLog(c echo.Context) error {
	id, err := pathID(c, MsgJobNotFound)
	if err != nil {
		return err
	}
	lines, err := s.store.jobLog(c.Request().Context(), owner(c), id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgJobNotFound)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, lines)
}

const jobColumns = `id, campaign_id, campaign_name, prefix, suffix, collection, designs, status, message, new_campaign_id,
created_at, updated_at`

// createJobs inserts one pending job per name and designs from the owner's origin campaign.
func (s store) createJobs(ctx context.Context, ownerID int64, b jobBody, names, designs []string) ([]int64, error) {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if err := ownsCampaign(ctx, tx, ownerID, b.CampaignID); err != nil {
		return nil, err
	}
	if err := underCampaignLimit(ctx, tx, ownerID, len(names)); err != nil {
		return nil, err
	}
	if err := markTemplates(ctx, tx, []int64{b.CampaignID}); err != nil {
		return nil, err
	}
	const q = `
INSERT INTO bulk_campaign_jobs (user_id, campaign_id, prefix, suffix, collection, campaign_name, designs)
SELECT $1::bigint, $2::bigint, $3::text, $4::text, $5::text, n, d
FROM unnest($6::text[], $7::text[]) WITH ORDINALITY AS t (n, d, i) ORDER BY i
RETURNING id`
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, q, ownerID, b.CampaignID, b.Prefix, b.Suffix, b.Collection,
		database.TextArray(names), database.TextArray(designs)); err != nil {
		return nil, fmt.Errorf("create bulk campaign jobs: %w", err)
	}
	return ids, tx.Commit()
}

// jobs reads the owner's jobs among ids, in id order.
func (s store) jobs(ctx context.Context, ownerID int64, ids []int64) ([]Job, error) {
	out := []Job{}
	q := `SELECT ` + jobColumns + ` FROM bulk_campaign_jobs WHERE user_id = $1 AND id = ANY ($2) ORDER BY id`
	if err := s.db.SelectContext(ctx, &out, q, ownerID, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("read bulk campaign jobs: %w", err)
	}
	return out, nil
}

// listJobs pages through the owner's jobs.
func (s store) listJobs(ctx context.Context, ownerID int64, text string, statuses []string, from, to *time.Time,
	orderBy string, asc bool, limit, offset int) ([]Job, int, error) {
	const where = ` FROM bulk_campaign_jobs WHERE user_id = $1
AND ($2 = '' OR campaign_name ILIKE '%' || $2 || '%' OR prefix ILIKE '%' || $2 || '%' OR suffix ILIKE '%' || $2 || '%'
	OR collection ILIKE '%' || $2 || '%')
AND (cardinality($3::text[]) = 0 OR status = ANY ($3))
AND ($4::timestamptz IS NULL OR created_at >= $4)
AND ($5::timestamptz IS NULL OR created_at < $5)`
	args := []any{ownerID, text, database.TextArray(statuses), from, to}
	var total int
	if err := s.db.GetContext(ctx, &total, `SELECT count(*)`+where, args...); err != nil {
		return nil, 0, fmt.Errorf("count bulk campaign jobs: %w", err)
	}
	dir := "DESC"
	if asc {
		dir = "ASC"
	}
	// orderBy is one of the columns ParseListQuery admitted.
	q := `SELECT ` + jobColumns + where + ` ORDER BY ` + orderBy + ` ` + dir + `, id DESC LIMIT $6 OFFSET $7`
	items := []Job{}
	if err := s.db.SelectContext(ctx, &items, q, append(args, limit, offset)...); err != nil {
		return nil, 0, fmt.Errorf("list bulk campaign jobs: %w", err)
	}
	return items, total, nil
}

// jobLog reads the bulk log of one of the owner's jobs, oldest first.
func (s store) jobLog(ctx context.Context, ownerID, id int64) ([]LogLine, error) {
	var found int64
	err := s.db.GetContext(ctx, &found, `SELECT id FROM bulk_campaign_jobs WHERE id = $1 AND user_id = $2`, id, ownerID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("find bulk campaign job %d: %w", id, err)
	}
	lines := []LogLine{}
	if err := s.db.SelectContext(ctx, &lines, `SELECT log, created_at FROM bulk_logs WHERE bulk_id = $1 ORDER BY id`, id); err != nil {
		return nil, fmt.Errorf("read log of bulk campaign job %d: %w", id, err)
	}
	return lines, nil
}
