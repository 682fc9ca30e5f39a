package uploads

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/renderer/tasks"
)

// CampaignRef is a campaign as a usage names it.
type CampaignRef struct {
	ID   int64  `db:"id" json:"id"`
	Name string `db:"name" json:"name"`
}

// Usage is what names a file: the seller's campaigns whose designs show it (an image's src, a text's
// backgroundUrl), and the seller's orders printed with it (design order items keep their design).
type Usage struct {
	Campaigns []CampaignRef `json:"campaigns"`
	Orders    int           `json:"orders"`
	// Bulk counts the seller's bulk records still to be made whose designs name the file.
	Bulk int `json:"bulk"`
}

// Used tells whether anything uses the file.
func (u Usage) Used() bool { return len(u.Campaigns) > 0 || u.Orders > 0 || u.Bulk > 0 }

// namesKey is true when a design document shows the file k.key: as an image, a text's background or
// a picture a buyer may pick (docs/personalization.md).
const namesKey = `(%[1]s->'objects' @> jsonb_build_array(jsonb_build_object('src', k.key))
	OR %[1]s->'objects' @> jsonb_build_array(jsonb_build_object('backgroundUrl', k.key))
	OR %[1]s->'objects' @> jsonb_build_array(jsonb_build_object('input', jsonb_build_object('options', jsonb_build_array(jsonb_build_object('src', k.key))))))`

var (
	qUsageCampaigns = `SELECT DISTINCT k.key, c.id, c.name FROM unnest($2::text[]) AS k(key)
JOIN campaigns c ON c.user_id = $1
JOIN campaign_designs d ON d.campaign_id = c.id
WHERE ` + fmt.Sprintf(namesKey, "d.design_json") + `
ORDER BY k.key, c.name, c.id`
	qUsageOrders = `SELECT k.key, count(DISTINCT o.id) AS n FROM unnest($2::text[]) AS k(key)
JOIN design_orders o ON o.seller_id = $1
JOIN design_order_items i ON i.order_id = o.id
WHERE ` + fmt.Sprintf(namesKey, "i.design_json") + `
GROUP BY k.key`
	qUsageBulk = `SELECT k.key, count(*) AS n FROM unnest($2::text[]) AS k(key)
JOIN bulk_records r ON r.user_id = $1 AND r.status IN ('pending', 'queued', 'processing') AND strpos(r.designs, k.key) > 0
GROUP BY k.key`
)

// UsageOf answers, for each of the seller's keys, what uses it (keys nothing uses are absent). q may
// be a transaction holding the uploads' rows locked, so that no save naming them slips in between
// (campaign saves read the upload rows they name FOR SHARE).
func UsageOf(ctx context.Context, q sqlx.QueryerContext, sellerID int64, keys []string) (map[string]Usage, error) {
	out := map[string]Usage{}
	if len(keys) == 0 {
		return out, nil
	}
	var camps []struct {
		Key string `db:"key"`
		CampaignRef
	}
	if err := sqlx.SelectContext(ctx, q, &camps, qUsageCampaigns, sellerID, pq.Array(keys)); err != nil {
		return nil, fmt.Errorf("campaigns using files: %w", err)
	}
	for _, c := range camps {
		u := out[c.Key]
		u.Campaigns = append(u.Campaigns, c.CampaignRef)
		out[c.Key] = u
	}
	for _, count := range []struct {
		q    string
		what string
		set  func(u *Usage, n int)
	}{
		{qUsageOrders, "orders", func(u *Usage, n int) { u.Orders = n }},
		{qUsageBulk, "bulk records", func(u *Usage, n int) { u.Bulk = n }},
	} {
		var rows []struct {
			Key string `db:"key"`
			N   int    `db:"n"`
		}
		if err := sqlx.SelectContext(ctx, q, &rows, count.q, sellerID, pq.Array(keys)); err != nil {
			return nil, fmt.Errorf("%s using files: %w", count.what, err)
		}
		for _, r := range rows {
			u := out[r.Key]
			count.set(&u, r.N)
			out[r.Key] = u
		}
	}
	return out, nil
}

// RemoveFile deletes a stored upload's object, the source it was made from (if any) and every
// variant made of it; a missing one is no error.
func RemoveFile(ctx context.Context, del func(ctx context.Context, key string) error, key, source string) error {
	keys := []string{key}
	if source != "" {
		keys = append(keys, source)
	}
	for _, v := range tasks.Variants() {
		keys = append(keys, tasks.VariantKey(v.Name, key))
	}
	for _, k := range keys {
		if err := del(ctx, k); err != nil {
			return fmt.Errorf("remove %s: %w", k, err)
		}
	}
	return nil
}
