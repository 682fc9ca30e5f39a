package campaigns

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/uploads"
	"github.com/pressroom/pressroom/renderer/tasks"
)

// Messages of the mockup calls.
const (
	// MsgMockupNotFound answers a default-mockup choice or a retry naming no mockup of the campaign.
	MsgMockupNotFound = "Mockup not found."
	// MsgMockupNotFailed refuses to retry a mockup that is made.
	MsgMockupNotFailed = "This mockup has not failed: there is nothing to retry."
	// MsgMockupOutdated refuses to retry a mockup of a design saved since, whose print file is still
	// being made (or failed): the new print file brings its own mockups.
	MsgMockupOutdated = "The design has changed since this mockup failed. Its new mockups follow its print file."
)

// Mockup is a mockup record of a campaign product: the flat
// mockup of one mockup template showing the design of its print space, which the renderer's
// render:mockup task makes after each print file. IsDefaultMockup is '1' or '0', as the UI reads it;
// URL serves the file (mockups under p/ are public) once the status is done, changing with each
// render so that a browser never shows a previous revision's image; PreviewURL serves its 500 px
// WebP preview the same way, empty for a mockup made before previews existed. DownloadURL, once
// done, is a signed GET of the file that saves it as FileName (mockupFileName).
type Mockup struct {
	ID               int64      `db:"id" json:"id"`
	ProductID        int64      `db:"product_id" json:"product_id"`
	PrintSpace       string     `db:"print_space" json:"print_space"`
	MockupTemplateID int64      `db:"mockup_template_id" json:"mockup_template_id"`
	Name             string     `db:"name" json:"name"`
	Revision         int64      `db:"design_revision" json:"revision"`
	Default          bool       `db:"is_default_mockup" json:"-"`
	IsDefaultMockup  string     `db:"-" json:"is_default_mockup"`
	FileURL          string     `db:"file_url" json:"file_url"`
	URL              string     `db:"-" json:"url"`
	PreviewKey       string     `db:"preview_url" json:"-"`
	PreviewURL       string     `db:"-" json:"preview_url"`
	DownloadURL      string     `db:"-" json:"download_url"`
	FileName         string     `db:"-" json:"file_name"`
	CampaignName     string     `db:"campaign_name" json:"-"`
	Status           string     `db:"status" json:"status"`
	Error            string     `db:"error" json:"error"`
	RenderedAt       *time.Time `db:"rendered_at" json:"-"`
}

// mockups lists the campaign's mockups by product and template position, filled in for the answer.
func (s *Service) mockups(ctx context.Context, q sqlx.QueryerContext, campaignID int64) ([]Mockup, error) {
	out := []Mockup{}
	const list = `SELECT m.id, m.product_id, m.print_space, m.mockup_template_id, coalesce(t.design_json->>'name', '') AS name,
	m.design_revision, m.is_default_mockup, m.file_url, m.preview_url, m.status, m.error, m.rendered_at, c.name AS campaign_name
FROM campaign_mockups m JOIN mockup_templates t ON t.id = m.mockup_template_id JOIN campaigns c ON c.id = m.campaign_id
WHERE m.campaign_id = $1 ORDER BY m.product_id, t.position, t.id`
	if err := sqlx.SelectContext(ctx, q, &out, list, campaignID); err != nil {
		return nil, fmt.Errorf("load mockups of campaign %d: %w", campaignID, err)
	}
	for i := range out {
		m := &out[i]
		m.IsDefaultMockup = "0"
		if m.Default {
			m.IsDefaultMockup = "1"
		}
		if m.Status == tasks.MockupDone && m.RenderedAt != nil {
			m.URL = renderURL(m.FileURL, *m.RenderedAt)
			if m.PreviewKey != "" {
				m.PreviewURL = renderURL(m.PreviewKey, *m.RenderedAt)
			}
			m.FileName = mockupFileName(m.CampaignName, m.Name, m.FileURL)
			url, err := s.d.Store.SignDownload(ctx, m.FileURL, m.FileName, s.d.DownloadTTL)
			if err != nil {
				return nil, fmt.Errorf("sign mockup %s: %w", m.FileURL, err)
			}
			m.DownloadURL = url
		}
	}
	return out, nil
}

// renderURL serves the mockup image stored at key (its file or its preview) as rendered at
// renderedAt: the version in the query changes with each render, so that a browser never shows a
// previous revision's image from its cache.
func renderURL(key string, renderedAt time.Time) string {
	return uploads.FileURL(key) + "?v=" + strconv.FormatInt(renderedAt.UnixMilli(), 36)
}

// handleMockups answers the campaign's mockups, as the editor polls them after a save.
func (s *Service) handleMockups(c echo.Context) error {
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
	out, err := s.mockups(ctx, s.d.DB, id)
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

type defaultMockupBody struct {
	MockupID int64 `json:"mockup_id"`
}

// handleDefaultMockup makes a mockup its product's default (one per product) and answers the
// campaign's mockups.
func (s *Service) handleDefaultMockup(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	var b defaultMockupBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	err = s.inCampaign(c, id, func(ctx context.Context, tx *sqlx.Tx) error {
		var productID int64
		err := tx.GetContext(ctx, &productID, `SELECT product_id FROM campaign_mockups WHERE id = $1 AND campaign_id = $2`, b.MockupID, id)
		if errors.Is(err, sql.ErrNoRows) {
			return envelope.Fail(http.StatusNotFound, MsgMockupNotFound,
				envelope.FieldError{Field: "mockup_id", Message: MsgMockupNotFound})
		}
		if err != nil {
			return fmt.Errorf("find mockup %d: %w", b.MockupID, err)
		}
		// Two statements: the unique index on a product's default is checked row by row. The choice is
		// the seller's from now on: a later print file no longer moves it (mockuptask.Queue).
		const clear = `UPDATE campaign_mockups SET is_default_mockup = false, default_chosen = false, updated_at = now()
WHERE product_id = $1 AND is_default_mockup AND id <> $2`
		const set = `UPDATE campaign_mockups SET is_default_mockup = true, default_chosen = true, updated_at = now() WHERE id = $1`
		if _, err := tx.ExecContext(ctx, clear, productID, b.MockupID); err != nil {
			return fmt.Errorf("clear default mockup of product %d: %w", productID, err)
		}
		if _, err := tx.ExecContext(ctx, set, b.MockupID); err != nil {
			return fmt.Errorf("set default mockup %d: %w", b.MockupID, err)
		}
		return touch(ctx, tx, id)
	})
	if err != nil {
		return err
	}
	out, err := s.mockups(c.Request().Context(), s.d.DB, id)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The default mockup has been set.", out)
}

// handleRetryMockup queues a failed mockup again, the seller watching (interactive priority), and
// answers the campaign's mockups, the retried one pending. A mockup already pending is left queued;
// one that is made, or whose design has changed since, is refused.
func (s *Service) handleRetryMockup(c echo.Context) error {
	id, err := campaignID(c)
	if err != nil {
		return err
	}
	mockupID, err := strconv.ParseInt(c.Param("mockup_id"), 10, 64)
	if err != nil || mockupID <= 0 {
		return envelope.Fail(http.StatusNotFound, MsgMockupNotFound)
	}
	var outboxID int64
	err = s.inCampaign(c, id, func(ctx context.Context, tx *sqlx.Tx) error {
		outboxID, err = s.store.retryMockup(ctx, tx, id, mockupID)
		switch {
		case errors.Is(err, ErrMockupNotFound):
			return envelope.Fail(http.StatusNotFound, MsgMockupNotFound)
		case errors.Is(err, ErrMockupNotFailed):
			return envelope.Fail(http.StatusConflict, MsgMockupNotFailed)
		case errors.Is(err, ErrMockupOutdated):
			return envelope.Fail(http.StatusConflict, MsgMockupOutdated)
		}
		return err
	})
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if outboxID != 0 {
		s.dispatch(ctx, id, outboxID)
	}
	out, err := s.mockups(ctx, s.d.DB, id)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, "The mockup is being made again.", out)
}
