package reports

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/commerce/money"
)

// Deps are what the reports routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers the Dashboard overview.
type Service struct {
	d     Deps
	store store
}

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("reports: database and auth are required")
	}
	return &Service{d: d, store: store{db: d.DB}}, nil
}

// The overview needs get_reports (the menu's Dashboard > Overview reads the same).
var need = access.Permitted(access.GetReports)

// Routes lists the reports endpoints under g (mounted at /api).
func Routes(g *echo.Group, s *Service) {
	s.d.Auth.Handle(g, http.MethodGet, "/seller/reports/overview", need, s.handleOverview)
	s.d.Auth.Handle(g, http.MethodGet, "/seller/reports/margins", need, s.handleMargins)
}

// Messages of a bad overview request.
const (
	MsgStore    = "Choose one of your stores."
	MsgCurrency = "The currency must be EUR or USD."
	MsgOpen     = "Choose a date range, or both a from and a to date."
	MsgTooLong  = "The date range may span at most 366 days."
)

// maxDays bounds a custom range, and so the days of the sales chart.
const maxDays = 366

// Figure is one of the overview's numbers and the same number over the period just before.
type Figure struct {
	Value    int64 `json:"value"`
	Previous int64 `json:"previous"`
}

// MoneyFigure is a Figure in money.
type MoneyFigure struct {
	Value    money.Money `json:"value"`
	Previous money.Money `json:"previous"`
}

// Figures are the overview's cards.
type Figures struct {
	Sales             MoneyFigure `json:"sales"`
	Orders            Figure      `json:"orders"`
	Items             Figure      `json:"items"`
	AverageOrderValue MoneyFigure `json:"average_order_value"`
	Earnings          MoneyFigure `json:"earnings"`
	Visits            Figure      `json:"visits"`
}

// Period is a [from, to) range in the caller's clock.
type Period struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Overview is the Dashboard overview's data. The slices' and campaigns' sales are minor units of
// Currency; Currencies are those the account sold in over both periods, the most orders first.
type Overview struct {
	Period         Period     `json:"period"`
	Previous       Period     `json:"previous"`
	Currency       string     `json:"currency"`
	Currencies     []string   `json:"currencies"`
	Figures        Figures    `json:"figures"`
	Days           []Slice    `json:"days"`
	Countries      []Slice    `json:"countries"`
	Stores         []Slice    `json:"stores"`
	Devices        []Slice    `json:"devices"`
	PaymentMethods []Slice    `json:"payment_methods"`
	TopCampaigns   []Campaign `json:"top_campaigns"`
}

// request is a parsed overview request.
type request struct {
	f        filter // the current period
	prev     filter // the period just before, as long
	offset   int    // the caller's clock, seconds east of UTC
	currency string // as asked, "" for the default
}

// parse reads date_range, from, to (listing.DateRange), store_id and currency; every bad one is named.
func (s *Service) parse(c echo.Context) (request, error) {
	now := time.Now()
	utcOffset := auth.Caller(c).User.UTCOffset(now)
	from, to, errs := listing.DateRange(c, utcOffset, now)
	bad := func(field, msg string) { errs = append(errs, envelope.FieldError{Field: field, Message: msg}) }
	if len(errs) == 0 {
		switch {
		case from == nil && to == nil:
			bad("date_range", MsgOpen)
		case from == nil:
			bad("from", MsgOpen)
		case to == nil:
			bad("to", MsgOpen)
		case to.Sub(*from) > maxDays*24*time.Hour:
			bad("to", MsgTooLong)
		}
	}
	var store int64
	if v := c.QueryParam("store_id"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			bad("store_id", MsgStore)
		}
		store = n
	}
	currency := c.QueryParam("currency")
	if currency != "" {
		cur, err := money.ParseCurrency(currency)
		if err != nil {
			bad("currency", MsgCurrency)
		}
		currency = string(cur)
	}
	if len(errs) > 0 {
		return request{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	sc, err := listing.ScopeOf(c, s.d.DB)
	if err != nil {
		return request{}, err
	}
	if store != 0 {
		ok, err := s.store.ownsStore(c.Request().Context(), sc, store)
		if err != nil {
			return request{}, err
		}
		if !ok {
			return request{}, envelope.Fail(http.StatusUnprocessableEntity, MsgStore, envelope.FieldError{Field: "store_id", Message: MsgStore})
		}
	}
	length := to.Sub(*from)
	r := request{
		f:        filter{sc: sc, store: store, from: *from, to: *to},
		prev:     filter{sc: sc, store: store, from: from.Add(-length), to: *from},
		offset:   int(utcOffset * 3600),
		currency: currency,
	}
	return r, nil
}

func (s *Service) handleOverview(c echo.Context) error {
	r, err := s.parse(c)
	if err != nil {
		return err
	}
	o, err := s.overview(c, r)
	if err != nil {
		return err
	}
	return envelope.OK(c, o)
}

// currencyOf is the currency a report is in: the one asked for, else the one the account had most
// orders in over both periods (USD without any); and the currencies it sold in.
func (s *Service) currencyOf(ctx context.Context, r request) (string, []string, error) {
	both := filter{sc: r.f.sc, store: r.f.store, from: r.prev.from, to: r.f.to}
	currencies, err := s.store.currencies(ctx, both)
	if err != nil {
		return "", nil, err
	}
	cur := r.currency
	if cur == "" && len(currencies) > 0 {
		cur = currencies[0]
	} else if cur == "" {
		cur = string(money.USD)
	}
	return cur, append([]string{}, currencies...), nil
}

func (s *Service) overview(c echo.Context, r request) (Overview, error) {
	ctx := c.Request().Context()
	cur, currencies, err := s.currencyOf(ctx, r)
	if err != nil {
		return Overview{}, err
	}
	r.f.currency, r.prev.currency = cur, cur
	now, err := s.store.totals(ctx, r.f)
	if err != nil {
		return Overview{}, err
	}
	before, err := s.store.totals(ctx, r.prev)
	if err != nil {
		return Overview{}, err
	}
	visitsNow, err := s.store.visits(ctx, r.f)
	if err != nil {
		return Overview{}, err
	}
	visitsBefore, err := s.store.visits(ctx, r.prev)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{
		Period:     Period{From: r.f.from, To: r.f.to},
		Previous:   Period{From: r.prev.from, To: r.prev.to},
		Currency:   cur,
		Currencies: currencies,
		Figures:    figures(money.Currency(cur), now, before, sum(visitsNow), sum(visitsBefore)),
	}
	for _, b := range []struct {
		d   dimension
		out *[]Slice
	}{{byDay, &o.Days}, {byCountry, &o.Countries}, {byStore, &o.Stores}, {byDevice, &o.Devices}, {byPayment, &o.PaymentMethods}} {
		if *b.out, err = s.store.breakdown(ctx, r.f, b.d, r.offset); err != nil {
			return Overview{}, err
		}
	}
	o.Days = everyDay(o.Days, r.f.from, r.f.to, r.offset)
	o.Devices = withVisits(o.Devices, visitsNow)
	for i := range o.PaymentMethods {
		o.PaymentMethods[i].Label = paymentLabel(o.PaymentMethods[i].Key)
	}
	if o.TopCampaigns, err = s.store.campaigns(ctx, r.f); err != nil {
		return Overview{}, err
	}
	return o, nil
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// figures are the cards from the totals of both periods; the average order value rounds half up.
func figures(c money.Currency, now, before totals, visits, visitsBefore int64) Figures {
	m := func(v, p int64) MoneyFigure {
		return MoneyFigure{Value: money.Money{Amount: v, Currency: c}, Previous: money.Money{Amount: p, Currency: c}}
	}
	return Figures{
		Sales:             m(now.Sales, before.Sales),
		Orders:            Figure{Value: now.Orders, Previous: before.Orders},
		Items:             Figure{Value: now.Items, Previous: before.Items},
		AverageOrderValue: m(average(now), average(before)),
		Earnings:          m(now.Earnings, before.Earnings),
		Visits:            Figure{Value: visits, Previous: visitsBefore},
	}
}

func average(t totals) int64 {
	if t.Orders == 0 {
		return 0
	}
	return (2*t.Sales + t.Orders) / (2 * t.Orders)
}

// everyDay answers a point for every day of [from, to) in the caller's clock, zero where nothing sold.
func everyDay(sold []Slice, from, to time.Time, offset int) []Slice {
	loc := time.FixedZone("", offset)
	out := []Slice{}
	for d := from.In(loc); d.Before(to); d = d.AddDate(0, 0, 1) {
		key := d.Format(time.DateOnly)
		i := slices.IndexFunc(sold, func(s Slice) bool { return s.Key == key })
		day := Slice{Key: key, Label: key}
		if i >= 0 {
			day.Orders, day.Sales = sold[i].Orders, sold[i].Sales
		}
		out = append(out, day)
	}
	return out
}

// Device classes as the storefront tells them from the browser (docs/overview.md).
var devices = []struct{ key, label string }{{"desktop", "Desktop"}, {"mobile", "Mobile"}, {"tablet", "Tablet"}, {"", "Unknown"}}

// withVisits answers every device class with its orders, sales and visits, the most sales first;
// orders whose checkout recorded no device are "Unknown".
func withVisits(sold []Slice, visits map[string]int64) []Slice {
	out := []Slice{}
	for _, d := range devices {
		s := Slice{Key: d.key, Label: d.label, Visits: visits[d.key]}
		if i := slices.IndexFunc(sold, func(x Slice) bool { return x.Key == d.key }); i >= 0 {
			s.Orders, s.Sales = sold[i].Orders, sold[i].Sales
		}
		if s.Orders > 0 || s.Visits > 0 {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b Slice) int { return cmp.Compare(b.Sales, a.Sales) })
	return out
}

// paymentLabel names a payment method: the platform's gateways, or the seller's own Stripe account.
func paymentLabel(key string) string {
	switch key {
	case "stripe":
		return "Card (Stripe)"
	case "own":
		return "Card (your Stripe account)"
	case "test":
		return "Test mode"
	case "":
		return "No payment"
	}
	return key
}
