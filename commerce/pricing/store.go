package pricing

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/platform/database"
)

// qCosts reads what campaign products cost: base and extra print cost (numeric(10,2) of the
// template, read in the store's currency), how many print spaces hold a design with an object, and
// the sizes of the product's type with what each adds.
const qCosts = `
SELECT p.id, p.base_cost::text AS base_cost, p.extra_print_cost::text AS extra_print,
	(SELECT count(*) FROM campaign_designs d WHERE d.product_id = p.id
		AND jsonb_array_length(coalesce(d.design_json -> 'objects', '[]')) > 0) AS designed,
	coalesce((SELECT json_agg(json_build_object('name', z.size, 'extra_cost', z.extra_price) ORDER BY z.position)
		FROM product_sizes z WHERE z.product_type = p.product_type), '[]') AS sizes
FROM campaign_products p WHERE p.id = ANY($1)`

// Costs reads the cost of each campaign product of ids, in currency c; ids of no product are left
// out.
func Costs(ctx context.Context, db sqlx.QueryerContext, c money.Currency, ids []int64) (map[int64]Cost, error) {
	var rows []struct {
		ID         int64  `db:"id"`
		Base       string `db:"base_cost"`
		ExtraPrint string `db:"extra_print"`
		Designed   int    `db:"designed"`
		Sizes      []byte `db:"sizes"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, qCosts, pq.Array(ids)); err != nil {
		return nil, fmt.Errorf("load product costs: %w", err)
	}
	out := make(map[int64]Cost, len(rows))
	for _, r := range rows {
		base, err := money.Parse(r.Base, c)
		if err != nil {
			return nil, fmt.Errorf("base cost of product %d: %w", r.ID, err)
		}
		extra, err := money.Parse(r.ExtraPrint, c)
		if err != nil {
			return nil, fmt.Errorf("extra print cost of product %d: %w", r.ID, err)
		}
		cost := Cost{Currency: c, Base: base.Amount, ExtraPrint: extra.Amount, Designed: r.Designed}
		if err := json.Unmarshal(r.Sizes, &cost.Sizes); err != nil {
			return nil, fmt.Errorf("sizes of product %d: %w", r.ID, err)
		}
		out[r.ID] = cost
	}
	return out, nil
}

// Product is a campaign product in a store as the seller prices it: its cost and its stored prices.
type Product struct {
	ProductID  int64  `db:"product_id"`
	CampaignID int64  `db:"campaign_id"`
	Campaign   string `db:"campaign"`
	Name       string `db:"name"`
	Status     string `db:"status"`
	// Currency is the one the product was priced in; a store that changed currency since sells it
	// once it is priced again.
	Currency money.Currency `db:"currency"`
	// CompareAt is the compare-at price stored with the price (0: none), the one the store shows.
	CompareAt int64  `db:"compare_at_price"`
	Stored    Stored `db:"-"`
	Cost      Cost   `db:"-"`
}

const qProducts = `
SELECT sp.product_id, sp.campaign_id, c.name AS campaign, p.name, sp.status, sp.currency, sp.price, sp.price_mode,
	coalesce(sp.compare_at_price, 0) AS compare_at_price,
	coalesce((SELECT json_object_agg(x.size, x.price) FROM store_product_sizes x
		WHERE x.store_id = sp.store_id AND x.product_id = sp.product_id), '{}') AS sizes
FROM store_products sp JOIN campaign_products p ON p.id = sp.product_id JOIN campaigns c ON c.id = sp.campaign_id
WHERE sp.store_id = $1 AND sp.campaign_id = ANY($2)
ORDER BY sp.campaign_id DESC, p.position, p.id`

// Load reads the products of campaigns on sale in store (in any status) with their prices and
// their costs in the store's currency c. With lock the store_products rows are locked for the rest
// of the transaction db must then be, so that a change computed from today's prices is not lost to
// another made at the same time: they are locked first and read after, by a statement of its own,
// which sees what a change that held them before committed (sizes included).
func Load(ctx context.Context, db sqlx.QueryerContext, storeID int64, c money.Currency, campaignIDs []int64, lock bool) ([]Product, error) {
	if lock {
		var locked []int64
		const qLock = `SELECT product_id FROM store_products WHERE store_id = $1 AND campaign_id = ANY($2) ORDER BY product_id FOR UPDATE`
		if err := sqlx.SelectContext(ctx, db, &locked, qLock, storeID, pq.Array(campaignIDs)); err != nil {
			return nil, fmt.Errorf("lock prices of store %d: %w", storeID, err)
		}
	}
	var rows []struct {
		Product
		Price int64  `db:"price"`
		Mode  Mode   `db:"price_mode"`
		Sizes []byte `db:"sizes"`
	}
	if err := sqlx.SelectContext(ctx, db, &rows, qProducts, storeID, pq.Array(campaignIDs)); err != nil {
		return nil, fmt.Errorf("load prices of store %d: %w", storeID, err)
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ProductID
	}
	costs, err := Costs(ctx, db, c, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Product, len(rows))
	for i, r := range rows {
		p := r.Product
		p.Stored = Stored{Mode: r.Mode, Price: r.Price}
		if r.Mode == Custom {
			if err := json.Unmarshal(r.Sizes, &p.Stored.Sizes); err != nil {
				return nil, fmt.Errorf("size prices of product %d: %w", p.ProductID, err)
			}
		}
		p.Cost = costs[p.ProductID]
		out[i] = p
	}
	return out, nil
}

// Set is the prices of one campaign product to store in a store: Stored with the compare-at price
// of its price (0: none), and Status when it is put on sale (empty keeps a product's status, and
// puts a new one on sale as active).
type Set struct {
	ProductID  int64
	CampaignID int64
	Stored     Stored
	CompareAt  int64
	Status     string
}

// Write stores sets in store storeID, priced in currency c, in tx: each product's price, mode,
// compare-at price and status, and its price per size in Custom mode (removed in the others).
func Write(ctx context.Context, tx *sqlx.Tx, storeID int64, c money.Currency, sets []Set) error {
	if len(sets) == 0 {
		return nil
	}
	n := len(sets)
	products, campaigns, prices, compares := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	modes, statuses := make([]string, n), make([]string, n)
	var sizeProducts, sizePrices []int64
	var sizeNames []string
	for i, s := range sets {
		products[i], campaigns[i], prices[i], compares[i] = s.ProductID, s.CampaignID, s.Stored.Price, s.CompareAt
		modes[i], statuses[i] = string(s.Stored.Mode), s.Status
		if s.Stored.Mode != Custom {
			continue
		}
		for size, p := range s.Stored.Sizes {
			sizeProducts, sizeNames, sizePrices = append(sizeProducts, s.ProductID), append(sizeNames, size), append(sizePrices, p)
		}
	}
	const upsert = `
WITH t AS (
	SELECT * FROM unnest($3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::text[])
		AS t (product_id, campaign_id, price, compare_at, mode, status)
)
INSERT INTO store_products (store_id, product_id, campaign_id, price, compare_at_price, currency, price_mode, status)
SELECT $1, t.product_id, t.campaign_id, t.price, nullif(t.compare_at, 0), $2, t.mode, coalesce(nullif(t.status, ''), 'active')
FROM t
ON CONFLICT (store_id, product_id) DO UPDATE SET price = excluded.price, compare_at_price = excluded.compare_at_price,
	currency = excluded.currency, price_mode = excluded.price_mode,
	status = CASE WHEN (SELECT t.status FROM t WHERE t.product_id = excluded.product_id) = '' THEN store_products.status
		ELSE excluded.status END,
	updated_at = now()`
	if _, err := tx.ExecContext(ctx, upsert, storeID, string(c), pq.Array(products), pq.Array(campaigns), pq.Array(prices),
		pq.Array(compares), database.TextArray(modes), database.TextArray(statuses)); err != nil {
		return fmt.Errorf("store prices in store %d: %w", storeID, err)
	}
	const clear = `DELETE FROM store_product_sizes WHERE store_id = $1 AND product_id = ANY($2)`
	if _, err := tx.ExecContext(ctx, clear, storeID, pq.Array(products)); err != nil {
		return fmt.Errorf("clear size prices in store %d: %w", storeID, err)
	}
	if len(sizeProducts) == 0 {
		return nil
	}
	const insertSizes = `INSERT INTO store_product_sizes (store_id, product_id, size, price)
SELECT $1, t.product_id, t.size, t.price FROM unnest($2::bigint[], $3::text[], $4::bigint[]) AS t (product_id, size, price)`
	if _, err := tx.ExecContext(ctx, insertSizes, storeID, pq.Array(sizeProducts), database.TextArray(sizeNames), pq.Array(sizePrices)); err != nil {
		return fmt.Errorf("store size prices in store %d: %w", storeID, err)
	}
	return nil
}
