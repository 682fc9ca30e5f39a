package billing

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/commerce/ledger"
)

func (s *Service) handleAdminPayouts(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	status := ledger.PayoutStatus(c.QueryParam("status"))
	if status != "" && !slices.Contains(ledger.PayoutStatuses, status) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBadStatus, envelope.FieldError{Field: "status", Message: MsgBadStatus})
	}
	list, total, err := ledger.ListPayouts(c.Request().Context(), s.d.DB, ledger.PayoutFilter{Status: status}, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(list, total, q))
}

type stepBody struct {
	Reference string `json:"reference"`
	Note      string `json:"note"`
}

func (s *Service) handleStep(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgPayoutNotFound)
	}
	step := ledger.Step(c.Param("step"))
	if !slices.Contains(ledger.Steps, step) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBadStep, envelope.FieldError{Field: "step", Message: MsgBadStep})
	}
	var b stepBody
	if c.Request().ContentLength != 0 {
		if err := envelope.Bind(c, &b); err != nil {
			return err
		}
	}
	p, err := ledger.StepPayout(c.Request().Context(), s.d.DB, id, step, auth.Caller(c).Person(), b.Reference, b.Note)
	switch {
	case errors.Is(err, ledger.ErrPayoutNotFound):
		return envelope.Fail(http.StatusNotFound, MsgPayoutNotFound)
	case errors.Is(err, ledger.ErrNeedReference):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNeedReference, envelope.FieldError{Field: "reference", Message: MsgNeedReference})
	case errors.Is(err, ledger.ErrInvalid):
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNoteTooLong, envelope.FieldError{Field: "note", Message: MsgNoteTooLong})
	case errors.Is(err, ledger.ErrStepRefused):
		msg := "This step is not possible now: " + strings.TrimPrefix(err.Error(), ledger.ErrStepRefused.Error()+": ") + "."
		return envelope.Fail(http.StatusConflict, msg)
	case err != nil:
		return err
	}
	return envelope.OK(c, p)
}

type adjustBody struct {
	SellerEmail string `json:"seller_email"`
	// Direction is credit (add) or debit (take).
	Direction string `json:"direction"`
	Amount    string `json:"amount"`
	Currency  string `json:"currency"`
	Reason    string `json:"reason"`
}

func (s *Service) handleAdjust(c echo.Context) error {
	var b adjustBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var seller int64
	err := s.d.DB.GetContext(ctx, &seller, `SELECT id FROM users WHERE lower(email) = lower($1)`, strings.TrimSpace(b.SellerEmail))
	if errors.Is(err, sql.ErrNoRows) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgSellerNotFound, envelope.FieldError{Field: "seller_email", Message: MsgSellerNotFound})
	} else if err != nil {
		return err
	}
	if b.Direction != "credit" && b.Direction != "debit" {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgBadDirection, envelope.FieldError{Field: "direction", Message: MsgBadDirection})
	}
	cur, err := s.currencyOf(ctx, b.Currency)
	if err != nil {
		return err
	}
	amount, err := amountOf(b.Amount, cur)
	if err != nil {
		return err
	}
	if r := strings.TrimSpace(b.Reason); r == "" || len(r) > ledger.MaxReason {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNeedReason, envelope.FieldError{Field: "reason", Message: MsgNeedReason})
	}
	signed := amount.Amount
	if b.Direction == "debit" {
		signed = -signed
	}
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Each adjustment is its own operation: the Idempotency-Key header (once) keeps a retried request
	// from adjusting twice; a random ledger key names this one.
	key := make([]byte, 16)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	e, err := ledger.Adjust(ctx, tx, ledger.Adjustment{SellerID: seller, Amount: signed, Currency: cur, Reason: b.Reason,
		ActorID: auth.Caller(c).Person(), Key: hex.EncodeToString(key)})
	if errors.Is(err, ledger.ErrInsufficient) {
		msg := "The seller's available balance is less than " + amount.String() + "."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "amount", Message: msg})
	} else if err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return envelope.OK(c, transaction(e))
}

func (s *Service) handleRelease(c echo.Context) error {
	id := envelope.PathID(c)
	if id == 0 {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	}
	ctx := c.Request().Context()
	tx, err := s.d.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	e, err := ledger.ReleaseOrder(ctx, tx, id)
	if errors.Is(err, ledger.ErrNoOrder) {
		return envelope.Fail(http.StatusNotFound, MsgOrderNotFound)
	} else if err != nil {
		return err
	}
	if e.ID == 0 {
		return envelope.Fail(http.StatusConflict, MsgNothingHeld)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgReleased, transaction(e))
}
