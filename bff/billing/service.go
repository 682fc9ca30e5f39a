package billing

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/bff/listing"
	"github.com/pressroom/pressroom/bff/systemconfig"
	"github.com/pressroom/pressroom/commerce/ledger"
	"github.com/pressroom/pressroom/commerce/money"
)

// Deps are what the billing routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Service answers Billing & Payouts and the admins' payout screen.
type Service struct{ d Deps }

// New checks the dependencies.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil {
		return nil, errors.New("billing: database and auth are required")
	}
	return &Service{d: d}, nil
}

// The seller's side needs get_payments (balance and payouts).
var need = access.Permitted(access.GetPayments)

// Routes lists the billing endpoints under g (mounted at /api); once makes a payout request or an
// adjustment safe to repeat (the Idempotency-Key header).
func Routes(g *echo.Group, s *Service, once echo.MiddlewareFunc) {
	a := s.d.Auth
	a.Handle(g, http.MethodGet, "/seller/billing", need, s.handleSummary)
	a.Handle(g, http.MethodGet, "/seller/billing/transactions", need, s.handleTransactions)
	a.Handle(g, http.MethodGet, "/seller/billing/transactions/export.csv", need, s.handleExport)
	a.Handle(g, http.MethodGet, "/seller/payouts", need, s.handlePayouts)
	a.Handle(g, http.MethodPost, "/seller/payouts", need, s.handleRequestPayout, once)
	a.Handle(g, http.MethodPost, "/seller/payouts/:id/withdraw", need, s.handleWithdrawPayout)
	a.Handle(g, http.MethodGet, "/admin/payouts", access.AdminOnly, s.handleAdminPayouts)
	a.Handle(g, http.MethodPost, "/admin/payouts/:id/:step", access.AdminOnly, s.handleStep)
	a.Handle(g, http.MethodPost, "/admin/ledger/adjustments", access.AdminOnly, s.handleAdjust, once)
	a.Handle(g, http.MethodPost, "/admin/ledger/orders/:id/release", access.AdminOnly, s.handleRelease)
}

// Messages the screens show.
const (
	MsgPayoutOpen      = "You already have a payout in progress. You can ask for another once it is completed or cancelled."
	MsgBadType         = "The type must be one of the transaction types."
	MsgBadStatus       = "The status must be pending, processing, completed, on_hold or cancelled."
	MsgBadCurrency     = "The currency must be EUR or USD."
	MsgPayoutNotFound  = "Payout not found."
	MsgPayoutWithdrawn = "Your payout request was cancelled; the amount is available again."
	MsgOrderNotFound   = "Order not found."
	MsgSellerNotFound  = "No seller has this e-mail address."
	MsgBadStep         = "The step must be approve, complete, hold or cancel."
	MsgNeedReference   = "Enter the payment's reference to complete the payout."
	MsgBadDirection    = "The direction must be credit or debit."
	MsgNeedReason      = "Enter the reason the seller will read (at most 500 characters)."
	MsgNoteTooLong     = "The reference and the note may have at most 500 characters."
	MsgNothingHeld     = "Nothing of this order's earnings is held."
	MsgReleased        = "The order's earnings are available."
	MsgPayoutRequested = "Your payout was requested."
	MsgNoAccount       = "Add a payment account and confirm it from the e-mail we send you before asking for a payout."
	MsgAccount         = "Choose one of your confirmed payment accounts."
)

// currencyOf reads the currency field, the display currency (systemconfig's) when empty.
func (s *Service) currencyOf(ctx context.Context, v string) (money.Currency, error) {
	if v == "" {
		configs, err := systemconfig.Configs(ctx, s.d.DB, systemconfig.KeyCurrencyCode)
		if err != nil {
			return "", err
		}
		v = cmp.Or(configs[systemconfig.KeyCurrencyCode], systemconfig.DefaultCurrencyCode)
	}
	c, err := money.ParseCurrency(v)
	if err != nil {
		return "", envelope.Fail(http.StatusUnprocessableEntity, MsgBadCurrency, envelope.FieldError{Field: "currency", Message: MsgBadCurrency})
	}
	return c, nil
}

// amountOf reads a decimal amount a person typed, with a message saying what is wrong.
func amountOf(v string, c money.Currency) (money.Money, error) {
	m, err := money.Parse(v, c)
	if err == nil && m.Amount == 0 {
		err = errors.New("it is zero")
	}
	if err != nil {
		reason := strings.TrimPrefix(err.Error(), money.ErrAmount.Error()+": ")
		msg := "Enter an amount like 50.00, more than zero with at most 2 decimals (" + reason + ")."
		return money.Money{}, envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "amount", Message: msg})
	}
	return m, nil
}

// Summary is the top of Billing & Payouts.
type Summary struct {
	Currency money.Currency `json:"currency"`
	// Available, Held and Total (available + held) in Currency; Paying is in the open payout.
	Available int64 `json:"available"`
	Held      int64 `json:"held"`
	Total     int64 `json:"total"`
	Paying    int64 `json:"paying"`
	Owed      int64 `json:"owed"`
	// PayoutMin is the least payout.
	PayoutMin  int64          `json:"payout_min"`
	OpenPayout *ledger.Payout `json:"open_payout"`
	// Accounts are the seller's valid payment accounts, the default first: those a payout may go to.
	Accounts []PayoutAccount `json:"payment_accounts"`
	// Others are the balances in other currencies, if any.
	Others []ledger.Balance `json:"others"`
}

func (s *Service) handleSummary(c echo.Context) error {
	ctx := c.Request().Context()
	seller := auth.Caller(c).User.ID
	cur, err := s.currencyOf(ctx, c.QueryParam("currency"))
	if err != nil {
		return err
	}
	all, err := ledger.Balances(ctx, s.d.DB, seller)
	if err != nil {
		return err
	}
	sum := Summary{Currency: cur, Others: []ledger.Balance{}}
	for _, b := range all {
		if b.Currency == cur {
			sum.Available, sum.Held, sum.Total, sum.Paying, sum.Owed = b.Available, b.Held, b.Total(), b.Paying, b.Owed
		} else {
			sum.Others = append(sum.Others, b)
		}
	}
	if sum.PayoutMin, err = ledger.PayoutMinimum(ctx, s.d.DB, cur); err != nil {
		return err
	}
	if sum.OpenPayout, err = ledger.OpenPayout(ctx, s.d.DB, seller); err != nil {
		return err
	}
	sum.Accounts = []PayoutAccount{}
	const q = `SELECT id, label, is_default FROM payment_accounts WHERE seller_id = $1 AND status = 'valid' ORDER BY is_default DESC, id DESC`
	if err := s.d.DB.SelectContext(ctx, &sum.Accounts, q, seller); err != nil {
		return err
	}
	return envelope.OK(c, sum)
}

// PayoutAccount is a payment account a payout may go to (bff/paymentaccounts keeps them).
type PayoutAccount struct {
	ID        int64  `db:"id" json:"id"`
	Label     string `db:"label" json:"label"`
	IsDefault bool   `db:"is_default" json:"is_default"`
}

// Transaction is an entry as the transactions table shows it.
type Transaction struct {
	ID          int64          `json:"id"`
	Type        ledger.Type    `json:"type"`
	Description string         `json:"description"`
	Currency    money.Currency `json:"currency"`
	// Amount is the change of what the seller has; Available and Held the changes of each.
	Amount         int64     `json:"amount"`
	Available      int64     `json:"available"`
	Held           int64     `json:"held"`
	AvailableAfter int64     `json:"available_after"`
	HeldAfter      int64     `json:"held_after"`
	OrderID        *int64    `json:"order_id"`
	PayoutID       *int64    `json:"payout_id"`
	Reference      string    `json:"reference"`
	CreatedAt      time.Time `json:"created_at"`
}

func transaction(e ledger.Entry) Transaction {
	return Transaction{ID: e.ID, Type: e.Type, Description: e.Description, Currency: e.Currency, Amount: e.Amount(),
		Available: e.DAvailable, Held: e.DHeld, AvailableAfter: e.AvailableAfter, HeldAfter: e.HeldAfter,
		OrderID: e.OrderID, PayoutID: e.PayoutID, Reference: e.Reference, CreatedAt: e.CreatedAt}
}

// filter reads the transactions' type and date range (in the user's utc_offset).
func filter(c echo.Context, now time.Time) (ledger.EntryFilter, error) {
	u := auth.Caller(c).User
	f := ledger.EntryFilter{SellerID: u.ID, Type: ledger.Type(c.QueryParam("type"))}
	var errs []envelope.FieldError
	if f.Type != "" && !slices.Contains(ledger.Types, f.Type) {
		errs = append(errs, envelope.FieldError{Field: "type", Message: MsgBadType})
	}
	from, to, rangeErrs := listing.DateRange(c, u.UTCOffset(now), now)
	f.From, f.To, errs = from, to, append(errs, rangeErrs...)
	if len(errs) > 0 {
		return ledger.EntryFilter{}, envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return f, nil
}

func (s *Service) handleTransactions(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	f, err := filter(c, time.Now())
	if err != nil {
		return err
	}
	entries, total, err := ledger.Entries(c.Request().Context(), s.d.DB, f, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	out := make([]Transaction, len(entries))
	for i, e := range entries {
		out[i] = transaction(e)
	}
	return c.JSON(http.StatusOK, envelope.NewPage(out, total, q))
}

// exportHeader is the CSV's first line; money columns are decimals of the entry's currency.
var exportHeader = []string{"date", "type", "description", "currency", "amount", "available_change", "held_change",
	"available_after", "held_after", "order_id", "payout_id", "reference"}

// decimal writes signed minor units as a decimal ("-12.50").
func decimal(a int64, c money.Currency) string {
	if a < 0 {
		return "-" + money.Money{Amount: -a, Currency: c}.Decimal()
	}
	return money.Money{Amount: a, Currency: c}.Decimal()
}

func optID(id *int64) string {
	if id == nil {
		return ""
	}
	return strconv.FormatInt(*id, 10)
}

// exportName is the billing export's file name: the seller's date.
func exportName(now time.Time, utcOffset float64) string {
	return "billing-" + now.In(time.FixedZone("", int(utcOffset*3600))).Format(time.DateOnly) + ".csv"
}

func (s *Service) handleExport(c echo.Context) error {
	now := time.Now()
	f, err := filter(c, now)
	if err != nil {
		return err
	}
	name := exportName(now, auth.Caller(c).User.UTCOffset(now))
	return listing.WriteCSV(c, name, exportHeader, func(write func([]string) error) error {
		return ledger.EachEntry(c.Request().Context(), s.d.DB, f, func(e ledger.Entry) error {
			cur := e.Currency
			return write([]string{e.CreatedAt.UTC().Format(time.RFC3339), string(e.Type), listing.Cell(e.Description), string(cur),
				decimal(e.Amount(), cur), decimal(e.DAvailable, cur), decimal(e.DHeld, cur), decimal(e.AvailableAfter, cur),
				decimal(e.HeldAfter, cur), optID(e.OrderID), optID(e.PayoutID), listing.Cell(e.Reference)})
		})
	})
}

func (s *Service) handlePayouts(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	list, total, err := ledger.ListPayouts(c.Request().Context(), s.d.DB, ledger.PayoutFilter{SellerID: auth.Caller(c).User.ID}, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(list, total, q))
}

// handleWithdrawPayout cancels the caller's own payout while it is pending (ledger.WithdrawPayout).
func (s *Service) handleWithdrawPayout(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgPayoutNotFound)
	}
	caller := auth.Caller(c)
	p, err := ledger.WithdrawPayout(c.Request().Context(), s.d.DB, caller.User.ID, id, caller.Person())
	switch {
	case errors.Is(err, ledger.ErrPayoutNotFound):
		return envelope.Fail(http.StatusNotFound, MsgPayoutNotFound)
	case errors.Is(err, ledger.ErrStepRefused):
		msg := "This payout can no longer be cancelled: " + strings.TrimPrefix(err.Error(), ledger.ErrStepRefused.Error()+": ") + "."
		return envelope.Fail(http.StatusConflict, msg)
	case err != nil:
		return err
	}
	return envelope.OKMessage(c, MsgPayoutWithdrawn, p)
}

type payoutBody struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	// PaymentAccountID is the account to pay to; 0 or absent: the default one.
	PaymentAccountID int64 `json:"payment_account_id"`
}

func (s *Service) handleRequestPayout(c echo.Context) error {
	var b payoutBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	cur, err := s.currencyOf(ctx, b.Currency)
	if err != nil {
		return err
	}
	amount, err := amountOf(b.Amount, cur)
	if err != nil {
		return err
	}
	id := auth.Caller(c)
	p, err := ledger.RequestPayout(ctx, s.d.DB, id.User.ID, id.Person(), b.PaymentAccountID, amount)
	switch {
	case errors.Is(err, ledger.ErrNoAccount):
		msg := MsgNoAccount
		if b.PaymentAccountID != 0 {
			msg = MsgAccount
		}
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "payment_account_id", Message: msg})
	case errors.Is(err, ledger.ErrPayoutOpen):
		return envelope.Fail(http.StatusConflict, MsgPayoutOpen)
	case errors.Is(err, ledger.ErrBelowMinimum), errors.Is(err, ledger.ErrInsufficient):
		msg := "The amount is more than your available balance."
		if errors.Is(err, ledger.ErrBelowMinimum) {
			min, _ := ledger.PayoutMinimum(ctx, s.d.DB, cur)
			msg = "The least payout is " + money.Money{Amount: min, Currency: cur}.String() + "."
		}
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "amount", Message: msg})
	case err != nil:
		return err
	}
	return envelope.OKMessage(c, MsgPayoutRequested, p)
}
