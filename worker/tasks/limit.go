package tasks

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// CampaignLimitError means adding campaigns would take an account past its campaign_limit; Limit
// is that limit. Its text is what bulk work answers and fails with.
type CampaignLimitError struct{ Limit int }

func (e *CampaignLimitError) Error() string {
	return fmt.Sprintf("Campaign limit reached: your account may have %d campaigns.", e.Limit)
}

// UnderCampaignLimit is the one check of users.campaign_limit (0 means no limit), for the editor,
// the bff's bulk calls and the worker's bulk tasks alike. It locks the owner's account row for the
// rest of tx, so concurrent creations count one after the other, and returns a *CampaignLimitError
// when the owner's campaigns plus adding would exceed the limit.
func UnderCampaignLimit(ctx context.Context, tx *sqlx.Tx, ownerID int64, adding int) error {
	var limit int
	if err := tx.GetContext(ctx, &limit, `SELECT campaign_limit FROM users WHERE id = $1 FOR UPDATE`, ownerID); err != nil {
		return fmt.Errorf("campaign limit: %w", err)
	}
	if limit <= 0 {
		return nil
	}
	var n int
	if err := tx.GetContext(ctx, &n, `SELECT count(*) FROM campaigns WHERE user_id = $1`, ownerID); err != nil {
		return fmt.Errorf("count campaigns: %w", err)
	}
	if n+adding > limit {
		return &CampaignLimitError{Limit: limit}
	}
	return nil
}
