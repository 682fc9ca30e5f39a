package pricing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/money"
	"github.com/pressroom/pressroom/commerce/pricing"
)

// Deps are what the pricing routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the Pricing screen.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("pricing: database and auth are required")
	}
	return &Service{d: d}, nil
}

// Pricing is a tagged tool (docs/shell.md): reading it needs the pricing tag and get_campaigns,
// changing prices the tag and update_campaign.
var (
	needRead  = access.Need{Permission: access.GetCampaigns, Tag: access.TagPricing}
	needWrite = access.Need{Permission: access.UpdateCampaign, Tag: access.TagPricing}
)

// Routes lists the pricing endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/pricing/settings", needRead, s.handleSettings)
	a.Handle(g, http.MethodGet, "/seller/pricing", needRead, s.handleList)
	a.Handle(g, http.MethodPut, "/seller/pricing/products/:product_id", needWrite, s.handleSetProduct)
	a.Handle(g, http.MethodPost, "/seller/pricing/preview", needRead, s.handlePreview)
	a.Handle(g, http.MethodPost, "/seller/pricing/apply", needWrite, s.handleApply)
}

// Messages of the pricing screen.
const (
	MsgStoreNotFound  = "Store not found."
	MsgStoreRequired  = "Choose one of your stores."
	MsgNotOnSale      = "This product is not on sale in this store."
	MsgCampaigns      = "Choose 1 to 500 of your campaigns on sale in this store."
	MsgChangeKind     = "The change must be one of margin, price, percent."
	MsgChangePercent  = "The percent must be a whole number from -99 to 1000, and not 0."
	MsgAmount         = "The %s must be an amount like 19.99."
	MsgProductChanged = "The prices of %s are saved."
	MsgApplied        = "New prices for %s of %s are saved."
	MsgRefused        = "%s cannot take this change; nothing was changed."
)

// maxChangeCampaigns bounds the campaigns of one change.
const maxChangeCampaigns = 500

func seller(c echo.Context) int64 { return auth.Caller(c).User.ID }

func invalid(errs ...envelope.FieldError) error {
	return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
}

// store is a store of the caller's account that the caller may see.
type store struct {
	ID       int64          `db:"id"`
	Name     string         `db:"name"`
	Currency money.Currency `db:"currency"`
}

// storeOf reads store id of the caller's account, when the store filter lets the caller see it.
func (s *Service) storeOf(c echo.Context, raw string) (store, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
	if err != nil || id <= 0 {
		return store{}, invalid(envelope.FieldError{Field: "store_id", Message: MsgStoreRequired})
	}
	u := auth.Caller(c).User
	var all []int64
	ctx := c.Request().Context()
	if err := s.d.DB.SelectContext(ctx, &all, `SELECT id FROM stores WHERE owner_id = $1`, u.ID); err != nil {
		return store{}, err
	}
	if !slices.Contains(access.StoreFilter(u.Access(), all), id) {
		return store{}, envelope.Fail(http.StatusNotFound, MsgStoreNotFound)
	}
	var st store
	if err := s.d.DB.GetContext(ctx, &st, `SELECT id, name, currency FROM stores WHERE id = $1`, id); err != nil {
		return store{}, err
	}
	return st, nil
}

// SettingsView is what prices are computed with in a store's currency.
type SettingsView struct {
	Currency money.Currency `json:"currency"`
	// ProcessingFee and ComparePriceRate are percents ("4", "3.5").
	ProcessingFee    string         `json:"processing_fee"`
	ProcessingFeeMin money.Money    `json:"processing_fee_min"`
	ComparePriceRate string         `json:"compare_price_rate"`
	Modes            []pricing.Mode `json:"modes"`
}

// percent writes basis points as a percent ("4", "3.5").
func percent(bp int64) string {
	s := strconv.FormatInt(bp/100, 10)
	if f := bp % 100; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%02d", f), "0")
	}
	return s
}

func (s *Service) handleSettings(c echo.Context) error {
	st, err := s.storeOf(c, c.QueryParam("store_id"))
	if err != nil {
		return err
	}
	set, err := pricing.LoadSettings(c.Request().Context(), s.d.DB, st.Currency)
	if err != nil {
		return err
	}
	return envelope.OK(c, SettingsView{Currency: st.Currency, ProcessingFee: percent(set.Fees.BasisPoints),
		ProcessingFeeMin: money.Money{Amount: set.Fees.Min, Currency: st.Currency}, ComparePriceRate: percent(set.CompareRate),
		Modes: pricing.Modes})
}

// handleList pages through the campaigns on sale in a store (store_id, q, page, per_page), newest
// first, each with every product priced.
func (s *Service) handleList(c echo.Context) error {
	st, err := s.storeOf(c, c.QueryParam("store_id"))
	if err != nil {
		return err
	}
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	const page = `SELECT c.id, c.name, count(*) OVER () AS total FROM campaigns c
WHERE c.user_id = $1 AND EXISTS (SELECT 1 FROM store_products sp WHERE sp.store_id = $2 AND sp.campaign_id = c.id)
	AND ($3 = '' OR c.name ILIKE $4)
ORDER BY c.id DESC LIMIT $5 OFFSET $6`
	var rows []struct {
		ID    int64  `db:"id"`
		Name  string `db:"name"`
		Total int    `db:"total"`
	}
	if err := s.d.DB.SelectContext(ctx, &rows, page, seller(c), st.ID, q.Q, listing.Inside(q.Q), q.PerPage, q.Offset()); err != nil {
		return fmt.Errorf("list priced campaigns: %w", err)
	}
	items := make([]CampaignView, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		items[i], ids[i] = CampaignView{ID: r.ID, Name: r.Name, Products: []ProductView{}}, r.ID
	}
	total := 0
	if len(rows) > 0 {
		total = rows[0].Total
		products, set, err := s.load(ctx, s.d.DB, st, ids, false)
		if err != nil {
			return err
		}
		for _, p := range products {
			i := slices.Index(ids, p.CampaignID)
			items[i].Products = append(items[i].Products, productView(p, set))
		}
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// load reads the products of campaigns ids in store st with their prices, and the settings.
func (s *Service) load(ctx context.Context, db sqlx.QueryerContext, st store, ids []int64, lock bool) ([]pricing.Product, pricing.Settings, error) {
	products, err := pricing.Load(ctx, db, st.ID, st.Currency, ids, lock)
	if err != nil {
		return nil, pricing.Settings{}, err
	}
	set, err := pricing.LoadSettings(ctx, db, st.Currency)
	return products, set, err
}

// productBody prices one product: the store, the mode and its margin, price or price per size,
// amounts written like 19.99.
type productBody struct {
	StoreID int64             `json:"store_id"`
	Mode    pricing.Mode      `json:"mode"`
	Margin  string            `json:"margin"`
	Price   string            `json:"price"`
	Sizes   map[string]string `json:"sizes"`
}

// intent reads the body's amounts in currency c into an intent; errors name their field.
func (b productBody) intent(c money.Currency) (pricing.Intent, []envelope.FieldError) {
	in := pricing.Intent{Mode: b.Mode}
	var errs []envelope.FieldError
	amount := func(field, label, raw string) int64 {
		m, err := money.Parse(raw, c)
		if err != nil {
			errs = append(errs, envelope.FieldError{Field: field, Message: fmt.Sprintf(MsgAmount, label)})
		}
		return m.Amount
	}
	switch b.Mode {
	case pricing.Adjust:
		in.Margin = amount("margin", "margin", b.Margin)
	case pricing.Fixed:
		in.Price = amount("price", "price", b.Price)
	case pricing.Custom:
		in.Sizes = make(map[string]int64, len(b.Sizes))
		for _, size := range slices.Sorted(maps.Keys(b.Sizes)) {
			in.Sizes[size] = amount("sizes."+size, "price of size "+size, b.Sizes[size])
		}
	}
	return in, errs
}

// fieldOf is the field a pricing refusal belongs to in a product's form.
func fieldOf(mode pricing.Mode, pe *pricing.PriceError) string {
	switch {
	case errors.Is(pe, pricing.ErrMode):
		return "mode"
	case pe.Size != "" && mode == pricing.Custom:
		return "sizes." + pe.Size
	case mode == pricing.Adjust:
		return "margin"
	}
	return "price"
}

// handleSetProduct prices one product of a store (productBody) and answers it priced.
func (s *Service) handleSetProduct(c echo.Context) error {
	var b productBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	st, err := s.storeOf(c, strconv.FormatInt(b.StoreID, 10))
	if err != nil {
		return err
	}
	productID := envelope.PathParamID(c, "product_id")
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var campaignID int64
	const find = `SELECT sp.campaign_id FROM store_products sp JOIN campaigns c ON c.id = sp.campaign_id
WHERE sp.store_id = $1 AND sp.product_id = $2 AND c.user_id = $3`
	if err := tx.GetContext(ctx, &campaignID, find, st.ID, productID, seller(c)); errors.Is(err, sql.ErrNoRows) {
		return envelope.Fail(http.StatusNotFound, MsgNotOnSale)
	} else if err != nil {
		return err
	}
	products, set, err := s.load(ctx, tx, st, []int64{campaignID}, true)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(products, func(p pricing.Product) bool { return p.ProductID == productID })
	if i < 0 {
		return envelope.Fail(http.StatusNotFound, MsgNotOnSale)
	}
	p := products[i]
	in, errs := b.intent(st.Currency)
	if len(errs) > 0 {
		return invalid(errs...)
	}
	stored, q, err := pricing.Sell(p.Cost, in, set)
	var pe *pricing.PriceError
	if errors.As(err, &pe) {
		return invalid(envelope.FieldError{Field: fieldOf(b.Mode, pe), Message: pe.Error()})
	}
	if err != nil {
		return err
	}
	set1 := pricing.Set{ProductID: p.ProductID, CampaignID: p.CampaignID, Stored: stored, CompareAt: q.CompareAt}
	if err := pricing.Write(ctx, tx, st.ID, st.Currency, []pricing.Set{set1}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	p.Stored, p.CompareAt = stored, q.CompareAt
	return envelope.OKMessage(c, fmt.Sprintf(MsgProductChanged, p.Campaign+" — "+p.Name), productView(p, set))
}

// changeBody is a change of many campaigns' prices in a store: to a margin or a price (an amount
// like 11.49) or by a percent (a whole number, -99 to 1000).
type changeBody struct {
	StoreID     int64   `json:"store_id"`
	CampaignIDs []int64 `json:"campaign_ids"`
	Change      struct {
		Kind  string `json:"kind"`
		Value string `json:"value"`
	} `json:"change"`
}

// read checks the body against store st's currency.
func (b changeBody) read(cur money.Currency) (pricing.Change, []int64, error) {
	var errs []envelope.FieldError
	ids := slices.Compact(slices.Sorted(slices.Values(b.CampaignIDs)))
	if len(ids) == 0 || len(ids) > maxChangeCampaigns {
		errs = append(errs, envelope.FieldError{Field: "campaign_ids", Message: MsgCampaigns})
	}
	ch := pricing.Change{Kind: b.Change.Kind}
	switch ch.Kind {
	case pricing.ChangeMargin, pricing.ChangePrice:
		m, err := money.Parse(b.Change.Value, cur)
		if err != nil {
			errs = append(errs, envelope.FieldError{Field: "change.value", Message: fmt.Sprintf(MsgAmount, ch.Kind)})
		}
		ch.Value = m.Amount
	case pricing.ChangePercent:
		p, err := strconv.ParseInt(strings.TrimSpace(b.Change.Value), 10, 64)
		ch.Value = p * 100
		if err != nil || ch.Check() != nil {
			errs = append(errs, envelope.FieldError{Field: "change.value", Message: MsgChangePercent})
		}
	default:
		errs = append(errs, envelope.FieldError{Field: "change.kind", Message: MsgChangeKind})
	}
	if len(errs) > 0 {
		return pricing.Change{}, nil, invalid(errs...)
	}
	return ch, ids, nil
}

// change computes what a change does to every product of its campaigns in the store, in db (with
// the products locked when lock), and the prices to store for those it can change.
func (s *Service) change(c echo.Context, db sqlx.QueryerContext, lock bool) (store, ChangeView, []pricing.Set, error) {
	var b changeBody
	if err := envelope.Bind(c, &b); err != nil {
		return store{}, ChangeView{}, nil, err
	}
	st, err := s.storeOf(c, strconv.FormatInt(b.StoreID, 10))
	if err != nil {
		return store{}, ChangeView{}, nil, err
	}
	ch, ids, err := b.read(st.Currency)
	if err != nil {
		return store{}, ChangeView{}, nil, err
	}
	ctx := c.Request().Context()
	var owned int
	const qOwned = `SELECT count(DISTINCT c.id) FROM campaigns c JOIN store_products sp ON sp.campaign_id = c.id AND sp.store_id = $3
WHERE c.user_id = $1 AND c.id = ANY($2)`
	if err := sqlx.GetContext(ctx, db, &owned, qOwned, seller(c), pq.Array(ids), st.ID); err != nil {
		return store{}, ChangeView{}, nil, err
	}
	if owned != len(ids) {
		return store{}, ChangeView{}, nil, invalid(envelope.FieldError{Field: "campaign_ids", Message: MsgCampaigns})
	}
	products, set, err := s.load(ctx, db, st, ids, lock)
	if err != nil {
		return store{}, ChangeView{}, nil, err
	}
	view := ChangeView{Currency: st.Currency, Rows: make([]ChangeRow, 0, len(products))}
	var sets []pricing.Set
	for _, p := range products {
		row := ChangeRow{ProductID: p.ProductID, CampaignID: p.CampaignID, Campaign: p.Campaign, Name: p.Name,
			Before: storedView(p, set)}
		stored, q, err := pricing.Sell(p.Cost, ch.Intent(p.Cost, p.Stored), set)
		var pe *pricing.PriceError
		switch {
		case errors.As(err, &pe):
			row.Problem = pe.Error()
			view.Refused++
		case err != nil:
			return store{}, ChangeView{}, nil, err
		default:
			after := viewOf(q, q.CompareAt)
			row.After = &after
			view.Changed++
			sets = append(sets, pricing.Set{ProductID: p.ProductID, CampaignID: p.CampaignID, Stored: stored, CompareAt: q.CompareAt})
		}
		view.Rows = append(view.Rows, row)
	}
	return st, view, sets, nil
}

// handlePreview answers what a change would do, changing nothing.
func (s *Service) handlePreview(c echo.Context) error {
	_, view, _, err := s.change(c, s.d.DB, false)
	if err != nil {
		return err
	}
	return envelope.OK(c, view)
}

// handleApply makes a change: every product of its campaigns at once, or, when any cannot take
// it, none (422 naming each).
func (s *Service) handleApply(c echo.Context) error {
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, view, sets, err := s.change(c, tx, true)
	if err != nil {
		return err
	}
	if view.Refused > 0 {
		var errs []envelope.FieldError
		for _, r := range view.Rows {
			if r.Problem != "" {
				errs = append(errs, envelope.FieldError{Field: "products." + strconv.FormatInt(r.ProductID, 10),
					Message: r.Campaign + " — " + r.Name + ": " + r.Problem})
			}
		}
		return envelope.Fail(http.StatusUnprocessableEntity, fmt.Sprintf(MsgRefused, count(view.Refused, "product")), errs...)
	}
	if err := pricing.Write(ctx, tx, st.ID, st.Currency, sets); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	campaigns := map[int64]bool{}
	for _, r := range view.Rows {
		campaigns[r.CampaignID] = true
	}
	return envelope.OKMessage(c, fmt.Sprintf(MsgApplied, count(view.Changed, "product"), count(len(campaigns), "campaign")), view)
}

// count is n things in words: "1 product", "3 products".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}
