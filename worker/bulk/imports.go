package bulk

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
	"github.com/pressroom/pressroom/worker/tasks"
)

// Messages an imported row fails with in the worker, when what the bff checked changed since.
const (
	MsgProductGone = "A product template of the row is no longer in the catalogue."
	MsgStoreGone   = "The row's store no longer exists."
)

// loadProducts reads product templates ids of the catalogue, in that order, as the products of an
// imported row's campaign (without designs); a template no longer there fails the row.
func loadProducts(ctx context.Context, db sqlx.QueryerContext, ids []int64) (template, error) {
	var rows []struct {
		ID          int64  `db:"id"`
		PrintSpaces string `db:"print_spaces"`
	}
	const q = `SELECT t.id, t.print_spaces FROM unnest($1::bigint[]) WITH ORDINALITY AS w (id, n)
JOIN product_templates t ON t.id = w.id ORDER BY w.n`
	if err := sqlx.SelectContext(ctx, db, &rows, q, pq.Array(ids)); err != nil {
		return template{}, fmt.Errorf("load product templates: %w", err)
	}
	if len(rows) != len(ids) || len(ids) == 0 {
		return template{}, &invalid{MsgProductGone}
	}
	t := template{Kind: "regular"}
	for i, r := range rows {
		p := product{ID: -int64(i + 1), Template: r.ID}
		if err := json.Unmarshal([]byte(r.PrintSpaces), &p.Spaces); err != nil {
			return template{}, fmt.Errorf("product template %d print_spaces: %w", r.ID, err)
		}
		t.Products = append(t.Products, p)
	}
	return t, nil
}

// mainSpace is the print space an artwork without one goes on for a product of the catalogue: its
// first main print space, else its first.
func mainSpace(p product) (string, bool) {
	for _, s := range p.Spaces {
		if s.IsMain {
			return s.Name, true
		}
	}
	if len(p.Spaces) == 0 {
		return "", false
	}
	return p.Spaces[0].Name, true
}

// applyToMain puts art on the main print space of each product (apply, one product at a time, as
// their main print spaces may differ in name).
func applyToMain(products []product, art artwork) ([]newDesign, error) {
	var out []newDesign
	for _, p := range products {
		space, ok := mainSpace(p)
		if !ok {
			return nil, &invalid{MsgPrintSpaceInvalid}
		}
		designs, err := apply([]product{p}, map[string]artwork{space: art})
		if err != nil {
			return nil, err
		}
		out = append(out, designs...)
	}
	return out, nil
}

// publish puts the campaign an imported row made on sale in the row's store, in tx: every product
// priced by the row's price (commerce/pricing) and active. A row without a store is not sold; a
// price that would now earn less than nothing fails the row with pricing's message.
func publish(ctx context.Context, tx *sqlx.Tx, r record, campaignID int64, products map[int64]int64) error {
	if !r.StoreID.Valid {
		return nil
	}
	var cur money.Currency
	err := tx.GetContext(ctx, &cur, `SELECT currency FROM stores WHERE id = $1 AND owner_id = $2`, r.StoreID.Int64, r.UserID)
	if errors.Is(err, sql.ErrNoRows) {
		return &invalid{MsgStoreGone}
	}
	if err != nil {
		return fmt.Errorf("load store %d: %w", r.StoreID.Int64, err)
	}
	var price tasks.ImportPrice
	if err := json.Unmarshal(r.Price, &price); err != nil {
		return fmt.Errorf("price of bulk record %d: %w", r.ID, err)
	}
	ids := make([]int64, 0, len(products))
	for _, id := range products {
		ids = append(ids, id)
	}
	costs, err := pricing.Costs(ctx, tx, cur, ids)
	if err != nil {
		return err
	}
	settings, err := pricing.LoadSettings(ctx, tx, cur)
	if err != nil {
		return err
	}
	intent := pricing.Intent{Mode: pricing.Mode(price.Mode), Margin: price.Margin, Price: price.Price}
	sets := make([]pricing.Set, 0, len(ids))
	for _, id := range ids {
		stored, q, err := pricing.Sell(costs[id], intent, settings)
		var pe *pricing.PriceError
		if errors.As(err, &pe) {
			return &invalid{pe.Error()}
		}
		if err != nil {
			return err
		}
		sets = append(sets, pricing.Set{ProductID: id, CampaignID: campaignID, Stored: stored, CompareAt: q.CompareAt, Status: "active"})
	}
	return pricing.Write(ctx, tx, r.StoreID.Int64, cur, sets)
}
