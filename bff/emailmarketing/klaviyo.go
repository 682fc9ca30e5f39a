package emailmarketing

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/klaviyo"
	"github.com/pressroom/pressroom/platform/seal"
)

// Messages of the Klaviyo calls.
const (
	MsgKlaviyoSaved       = "Klaviyo is connected."
	MsgKeyRequired        = "The private key field is required."
	MsgListRequired       = "The list id field is required."
	MsgKlaviyoUnreachable = "Klaviyo could not be reached to check the key. Nothing was saved; please try again."
	MsgNotConnected       = "Connect Klaviyo before syncing profiles."
	MsgSyncStarted        = "The profile sync has started."
	MsgSyncRunning        = "A profile sync is already running for this store."
)

// KlaviyoSettings is a store's Klaviyo settings as the screen reads them: the private key
// only masked, never in full.
type KlaviyoSettings struct {
	StoreID    int64      `json:"store_id"`
	PrivateKey string     `json:"private_key"`
	ListID     string     `json:"list_id"`
	Connected  bool       `json:"connected"`
	UpdatedAt  *time.Time `json:"updated_at"`
}

type klaviyoRow struct {
	Sealed    []byte    `db:"private_key_sealed"`
	Last4     string    `db:"key_last4"`
	ListID    string    `db:"list_id"`
	UpdatedAt time.Time `db:"updated_at"`
}

// mask shows a key as its prefix kind and last four characters: "pk_••••••••abcd".
func mask(last4 string) string { return seal.Mask("pk_", last4) }

func (s *Service) klaviyoRow(ctx context.Context, storeID int64) (klaviyoRow, bool, error) {
	var r klaviyoRow
	err := s.d.DB.GetContext(ctx, &r, `SELECT private_key_sealed, key_last4, list_id, updated_at FROM email_klaviyo_settings WHERE store_id = $1`, storeID)
	if isNoRows(err) {
		return r, false, nil
	}
	return r, err == nil, err
}

func (s *Service) handleGetKlaviyo(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	r, ok, err := s.klaviyoRow(c.Request().Context(), st.ID)
	if err != nil {
		return err
	}
	out := KlaviyoSettings{StoreID: st.ID}
	if ok {
		out.PrivateKey, out.ListID, out.Connected, out.UpdatedAt = mask(r.Last4), r.ListID, true, &r.UpdatedAt
	}
	return envelope.OK(c, out)
}

type klaviyoBody struct {
	PrivateKey string `json:"private_key"`
	ListID     string `json:"list_id"`
}

// handlePutKlaviyo checks the key and list against Klaviyo and stores them only if Klaviyo accepts
// both. A private_key left as the masked value (or empty) while a key is stored keeps that key, so
// the list can change without typing the key again.
func (s *Service) handlePutKlaviyo(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	var b klaviyoBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	key, list := strings.TrimSpace(b.PrivateKey), strings.TrimSpace(b.ListID)
	current, connected, err := s.klaviyoRow(ctx, st.ID)
	if err != nil {
		return err
	}
	if connected && (key == "" || key == mask(current.Last4)) {
		if key, err = s.sealer.Open(st.ID, current.Sealed); err != nil {
			key = ""
		}
	}
	var errs []envelope.FieldError
	if key == "" {
		errs = append(errs, envelope.FieldError{Field: "private_key", Message: MsgKeyRequired})
	}
	if list == "" {
		errs = append(errs, envelope.FieldError{Field: "list_id", Message: MsgListRequired})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	if err := s.checkKlaviyo(ctx, key, list); err != nil {
		return err
	}
	sealed, err := s.sealer.Seal(st.ID, key)
	if err != nil {
		return err
	}
	const q = `INSERT INTO email_klaviyo_settings (store_id, private_key_sealed, key_last4, list_id)
VALUES ($1, $2, $3, $4)
ON CONFLICT (store_id) DO UPDATE SET private_key_sealed = EXCLUDED.private_key_sealed,
    key_last4 = EXCLUDED.key_last4, list_id = EXCLUDED.list_id, updated_at = now()
RETURNING updated_at`
	var updated time.Time
	if err := s.d.DB.GetContext(ctx, &updated, q, st.ID, sealed, seal.Last4(key), list); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgKlaviyoSaved, KlaviyoSettings{StoreID: st.ID, PrivateKey: mask(seal.Last4(key)), ListID: list,
		Connected: true, UpdatedAt: &updated})
}

// checkKlaviyo reads the list with the key: Klaviyo's refusal becomes a 422 with Klaviyo's own
// message on the field it concerns; Klaviyo unreachable a 502.
func (s *Service) checkKlaviyo(ctx context.Context, key, list string) error {
	client, err := klaviyo.New(s.d.Email.KlaviyoBaseURL, key, s.d.HTTP)
	if err != nil {
		return err
	}
	// A seller is waiting: two quick tries, and no long Retry-After waits.
	client.Attempts, client.MaxWait = 2, 2*time.Second
	_, err = client.GetList(ctx, list)
	var apiErr *klaviyo.APIError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, klaviyo.ErrRefused) && errors.As(err, &apiErr):
		field := "private_key"
		if apiErr.Status == http.StatusNotFound {
			field = "list_id"
		}
		msg := "Klaviyo refused the connection: " + apiErr.Message
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: field, Message: msg})
	default:
		s.d.Log.Warn("klaviyo check failed", "err", err)
		return envelope.Fail(http.StatusBadGateway, MsgKlaviyoUnreachable)
	}
}

// handleSync records a sync run with its task and answers the run (202). A store with a run still
// queued or running gets that run back.
func (s *Service) handleSync(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, connected, err := s.klaviyoRow(ctx, st.ID); err != nil {
		return err
	} else if !connected {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgNotConnected)
	}
	run, outboxID, err := requestSyncRun(ctx, s.d.DB, st.ID, auth.Caller(c).Person())
	if err != nil {
		return err
	}
	if outboxID == 0 {
		return envelope.OKMessage(c, MsgSyncRunning, run)
	}
	// Committed: if Redis is away now, the relay sends the task later.
	if _, err := s.d.Relay.Dispatch(ctx, outboxID); err != nil {
		s.d.Log.Warn("email sync task left for the relay", "run_id", run.ID, "err", err)
	}
	return c.JSON(http.StatusAccepted, envelope.Response{Success: true, Message: MsgSyncStarted, Data: run, Errors: []envelope.FieldError{}})
}

// handleSyncProgress answers the store's latest run, or null when it never synced.
func (s *Service) handleSyncProgress(c echo.Context) error {
	st, err := s.store(c, c.Param("store_id"))
	if err != nil {
		return err
	}
	run, err := latestSyncRun(c.Request().Context(), s.d.DB, st.ID)
	if errors.Is(err, errNoSyncRun) {
		return envelope.OK(c, nil)
	}
	if err != nil {
		return err
	}
	return envelope.OK(c, run)
}
