package seed

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/pressroom/pressroom/bff/featured"
	"github.com/pressroom/pressroom/bff/survey"
)

// demoSaleVolume is the demo seller's survey answer: an established seller, so the survey (meant
// for new sign-ups) does not cover the demo's screens.
const demoSaleVolume = "300 - 600"

// demoArticles are the featured articles of the dashboard's carousel: one that opens in the modal,
// one that opens its link in a new tab.
var demoArticles = []featured.Article{
	{
		Subject:  "Launch your first campaign in ten minutes",
		Banner:   "/featured/first-campaign.svg",
		Content:  `<p>Pick a product, place your artwork and publish: <strong>your storefront is ready the moment you are</strong>.</p><ol><li>Create a store</li><li>Design the print areas</li><li>Set your prices and launch</li></ol>`,
		Position: 1,
		Active:   true,
	},
	{
		Subject:  "All-over print hoodies are here",
		Banner:   "/featured/aop-hoodies.svg",
		Content:  `<p>Seam-to-seam prints with 3D mockups.</p>`,
		Link:     "https://example.com/blog/all-over-print-hoodies",
		Position: 2,
		Active:   true,
	},
}

// seedEngagement records the demo seller's survey (Tier 2) and adds the demo featured articles when
// there are none yet.
func seedEngagement(ctx context.Context, tx *sqlx.Tx) error {
	const answered = `
UPDATE users SET sale_volume = $1, tier = GREATEST(tier, $2), survey_completed_at = COALESCE(survey_completed_at, now())
WHERE lower(email) = 'seller@example.com' AND sale_volume IS NULL`
	if _, err := tx.ExecContext(ctx, answered, demoSaleVolume, survey.TierSurveyed); err != nil {
		return fmt.Errorf("seed survey: %w", err)
	}
	var hasArticles bool
	if err := tx.GetContext(ctx, &hasArticles, `SELECT EXISTS (SELECT 1 FROM featured_articles)`); err != nil {
		return fmt.Errorf("seed featured articles: %w", err)
	}
	if hasArticles {
		return nil
	}
	for _, a := range demoArticles {
		if errs := featured.Check(&a); len(errs) > 0 {
			return fmt.Errorf("seed featured article %q: %s", a.Subject, errs[0].Message)
		}
		if _, err := featured.Save(ctx, tx, a, false); err != nil {
			return fmt.Errorf("seed featured article %q: %w", a.Subject, err)
		}
	}
	return nil
}
