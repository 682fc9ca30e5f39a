package campaigns

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/stores"
	"github.com/pressroom/pressroom/platform/queue"
	workertasks "github.com/pressroom/pressroom/worker/tasks"
)

// The campaign list's actions on one campaign (docs/campaigns.md): its address, a copy, archiving.

// handleSlug says whether the caller may give a campaign (other than except) an address.
func (s *Service) handleSlug(c echo.Context) error {
	slug := strings.ToLower(strings.TrimSpace(c.QueryParam("slug")))
	except, _ := strconv.ParseInt(c.QueryParam("except"), 10, 64)
	out := map[string]any{"slug": slug, "available": false, "message": ""}
	if !stores.PathSlugOK(slug) {
		out["message"] = MsgSlug
		return envelope.OK(c, out)
	}
	var used bool
	const q = `SELECT EXISTS (SELECT 1 FROM campaigns WHERE user_id = $1 AND slug = $2 AND id <> $3)`
	if err := s.d.DB.GetContext(c.Request().Context(), &used, q, owner(c), slug, except); err != nil {
		return fmt.Errorf("check campaign address: %w", err)
	}
	out["available"] = !used
	if used {
		out["message"] = MsgSlugTaken
	}
	return envelope.OK(c, out)
}

// handleSetSlug gives the caller's campaign the address {"slug": "..."}.
func (s *Service) handleSetSlug(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var b struct {
		Slug string `json:"slug"`
	}
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	slug := strings.ToLower(strings.TrimSpace(b.Slug))
	if !stores.PathSlugOK(slug) {
		return invalid(envelope.FieldError{Field: "slug", Message: MsgSlug})
	}
	res, err := s.d.DB.ExecContext(c.Request().Context(),
		`UPDATE campaigns SET slug = $3, updated_at = now() WHERE id = $1 AND user_id = $2`, id, owner(c), slug)
	var pe *pq.Error
	if errors.As(err, &pe) && pe.Code == "23505" {
		return invalid(envelope.FieldError{Field: "slug", Message: MsgSlugTaken})
	}
	if err != nil {
		return fmt.Errorf("set campaign address: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound()
	}
	return s.respond(c, id)
}

// copySuffix ends a duplicate's name.
const copySuffix = " (copy)"

// handleDuplicate makes a copy of the caller's campaign: "{name} (copy)" with the same kind,
// products and designs (workertasks.CreateCampaign), its print files queued; it is not sold
// anywhere until the seller sells it. The answer is the copy.
func (s *Service) handleDuplicate(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	camp, rows, err := s.store.campaign(ctx, tx, owner(c), id, true)
	if errors.Is(err, ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	nc := workertasks.NewCampaign{OwnerID: owner(c), Name: workertasks.FitName(camp.Name + copySuffix), Kind: camp.Kind,
		Personalized: camp.Personalized, ArtworkKey: camp.ArtworkURL}
	for _, p := range camp.Products {
		nc.Products = append(nc.Products, workertasks.ProductSource{FromProduct: p.ID})
	}
	for _, r := range rows {
		var doc struct {
			Objects []json.RawMessage `json:"objects"`
		}
		if err := json.Unmarshal(r.DesignJSON, &doc); err != nil {
			return fmt.Errorf("design %d: %w", r.ID, err)
		}
		nc.Designs = append(nc.Designs, workertasks.CampaignDesign{
			Product:    slices.IndexFunc(camp.Products, func(p Product) bool { return p.ID == r.ProductID }),
			PrintSpace: r.PrintSpace, Document: r.DesignJSON, Option: r.Option, Empty: len(doc.Objects) == 0})
	}
	made, err := workertasks.CreateCampaign(ctx, tx, nc, queue.Interactive)
	var over *workertasks.CampaignLimitError
	if errors.As(err, &over) {
		return envelope.Fail(http.StatusUnprocessableEntity, fmt.Sprintf(msgCampaignLimitPattern, over.Limit))
	}
	if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.dispatch(ctx, made.ID, made.OutboxIDs...)
	return s.respond(c, made.ID)
}

// handleArchive archives the caller's campaign: it leaves the default list and every store (its
// products there become inactive, keeping their prices).
func (s *Service) handleArchive(c echo.Context) error {
	return s.setArchived(c, true)
}

// handleUnarchive brings an archived campaign back as a draft; the seller sells it again.
func (s *Service) handleUnarchive(c echo.Context) error {
	return s.setArchived(c, false)
}

func (s *Service) setArchived(c echo.Context, archive bool) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var status string
	err = s.inCampaign(c, id, func(ctx context.Context, tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &status, `SELECT status FROM campaigns WHERE id = $1`, id); err != nil {
			return err
		}
		switch {
		case archive && status == StatusArchived:
			return invalid(envelope.FieldError{Field: "status", Message: MsgAlreadyArchived})
		case !archive && status != StatusArchived:
			return invalid(envelope.FieldError{Field: "status", Message: MsgNotArchived})
		}
		return archiveIn(ctx, tx, id, archive)
	})
	if err != nil {
		return err
	}
	msg := MsgArchived
	if !archive {
		msg = MsgUnarchived
	}
	camp, _, err := s.store.campaign(c.Request().Context(), s.d.DB, owner(c), id, false)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, msg, map[string]any{"id": camp.ID, "status": camp.Status})
}

// archiveIn archives campaign id in tx, taking its products off sale, or brings it back: as a
// draft, unless a product of it is on sale, which the status trigger of store_products decides
// (schema/migrations/00103_campaign_list.sql), asked here by touching the products' status.
func archiveIn(ctx context.Context, tx *sqlx.Tx, id int64, archive bool) error {
	if archive {
		if _, err := tx.ExecContext(ctx, `UPDATE campaigns SET status = 'archived', updated_at = now() WHERE id = $1`, id); err != nil {
			return fmt.Errorf("archive campaign %d: %w", id, err)
		}
		const off = `UPDATE store_products SET status = 'inactive', updated_at = now() WHERE campaign_id = $1 AND status = 'active'`
		if _, err := tx.ExecContext(ctx, off, id); err != nil {
			return fmt.Errorf("take campaign %d off sale: %w", id, err)
		}
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE campaigns SET status = 'draft', updated_at = now() WHERE id = $1`, id); err != nil {
		return fmt.Errorf("unarchive campaign %d: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE store_products SET status = status WHERE campaign_id = $1`, id); err != nil {
		return fmt.Errorf("campaign %d status: %w", id, err)
	}
	return nil
}
