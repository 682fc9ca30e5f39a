package reports

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// Margin is what a product sold over the range and what that left the seller after its costs,
// each unit priced as the Pricing screen prices it (docs/overview.md#margin-per-product).
type Margin struct {
	ProductID  int64       `json:"product_id"`
	Product    string      `json:"product"`
	CampaignID int64       `json:"campaign_id"`
	Campaign   string      `json:"campaign"`
	Units      int64       `json:"units"`
	Sales      money.Money `json:"sales"`
	BaseCost   money.Money `json:"base_cost"`
	ExtraPrint money.Money `json:"extra_print_cost"`
	Fees       money.Money `json:"fees"`
	Margin     money.Money `json:"margin"`
}

// Margins are the products sold over the range, the largest margin first.
type Margins struct {
	Period     Period   `json:"period"`
	Currency   string   `json:"currency"`
	Currencies []string `json:"currencies"`
	Products   []Margin `json:"products"`
}

// soldLine is the units of one product, size and unit price sold over the range.
type soldLine struct {
	ProductID  int64  `db:"product_id"`
	Product    string `db:"product"`
	CampaignID int64  `db:"campaign_id"`
	Campaign   string `db:"campaign"`
	Size       string `db:"size"`
	UnitPrice  int64  `db:"unit_price"`
	Units      int64  `db:"units"`
}

var qSold = `SELECT i.product_id, min(i.product_name) AS product, coalesce(min(i.campaign_id), 0) AS campaign_id,
	coalesce(min(c.name), '') AS campaign, i.size, i.unit_price, sum(i.quantity)::bigint AS units
FROM (` + qOrdersIn + `) o JOIN order_items i ON i.order_id = o.id LEFT JOIN campaigns c ON c.id = i.campaign_id
WHERE i.product_id IS NOT NULL
GROUP BY i.product_id, i.size, i.unit_price`

// margins adds up the products sold in the filter's orders, costed by commerce/pricing today.
func (s store) margins(ctx context.Context, f filter) ([]Margin, error) {
	var lines []soldLine
	if err := s.db.SelectContext(ctx, &lines, qSold, f.args()...); err != nil {
		return nil, fmt.Errorf("margins: %w", err)
	}
	cur := money.Currency(f.currency)
	ids := make([]int64, 0, len(lines))
	for _, l := range lines {
		ids = append(ids, l.ProductID)
	}
	costs, err := pricing.Costs(ctx, s.db, cur, ids)
	if err != nil {
		return nil, err
	}
	fees, err := pricing.LoadFees(ctx, s.db, cur)
	if err != nil {
		return nil, err
	}
	m := func(a int64) money.Money { return money.Money{Amount: a, Currency: cur} }
	byProduct := map[int64]*Margin{}
	for _, l := range lines {
		p := byProduct[l.ProductID]
		if p == nil {
			p = &Margin{ProductID: l.ProductID, Product: l.Product, CampaignID: l.CampaignID, Campaign: l.Campaign,
				Sales: m(0), BaseCost: m(0), ExtraPrint: m(0), Fees: m(0), Margin: m(0)}
			byProduct[l.ProductID] = p
		}
		c := costs[l.ProductID]
		p.Units += l.Units
		p.Sales.Amount += l.UnitPrice * l.Units
		p.BaseCost.Amount += c.BaseOf(c.Size(l.Size)) * l.Units
		p.ExtraPrint.Amount += pricing.ExtraPrintCost(c.ExtraPrint, c.Designed) * l.Units
		p.Fees.Amount += fees.On(l.UnitPrice) * l.Units
	}
	out := make([]Margin, 0, len(byProduct))
	for _, p := range byProduct {
		p.Margin.Amount = p.Sales.Amount - p.BaseCost.Amount - p.ExtraPrint.Amount - p.Fees.Amount
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b Margin) int {
		return cmp.Or(cmp.Compare(b.Margin.Amount, a.Margin.Amount), cmp.Compare(a.ProductID, b.ProductID))
	})
	return out, nil
}

func (s *Service) handleMargins(c echo.Context) error {
	r, err := s.parse(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	cur, currencies, err := s.currencyOf(ctx, r)
	if err != nil {
		return err
	}
	r.f.currency = cur
	products, err := s.store.margins(ctx, r.f)
	if err != nil {
		return err
	}
	return envelope.OK(c, Margins{Period: Period{From: r.f.from, To: r.f.to}, Currency: cur, Currencies: currencies, Products: products})
}
