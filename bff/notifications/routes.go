package notifications

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
)

// Messages of the notification calls.
const (
	MsgNotFound     = "Notification not found."
	MsgAllRead      = "All notifications have been marked as read."
	MsgMarkAllField = "The mark all as read field must be true."
	MsgNoIDs        = "The notification ids field is required."
	MsgTooManyIDs   = "At most 100 notification ids may be sent at once."
	MsgBadAction    = "The action must be 1 or 2."
	MsgPosted       = "The notification has been sent."
	MsgNoSuchSeller = "The seller does not exist."
)

// Sizes of the short lists.
const (
	// BellLimit is how many notifications the bell's dropdown lists.
	BellLimit = 10
	// PopupLimit is how many notifications one popup steps through at most.
	PopupLimit = 20
	// maxIDs caps the ids of one read-status call.
	maxIDs = 100
)

// Deps are what the notification routes use.
type Deps struct {
	DB   *sqlx.DB
	Auth *auth.Service
}

// Routes lists the notification endpoints under g (mounted at /api). Every signed-in account reads
// the notifications meant for it (a team member those of the seller it works in); only admins post.
// once makes a create safe to repeat (the Idempotency-Key header, see bff/idempotency).
func Routes(g *echo.Group, d Deps, once echo.MiddlewareFunc) {
	h := handlers{store: store{db: d.DB}}
	d.Auth.Handle(g, http.MethodGet, "/seller/notifications", access.SignedIn, h.list)
	d.Auth.Handle(g, http.MethodPut, "/seller/notifications", access.SignedIn, h.markAll)
	// The bell shows for the notify tag only; the list and the popup serve every seller.
	d.Auth.Handle(g, http.MethodGet, "/seller/notifications/bell", access.Need{Tag: access.TagNotify}, h.bell)
	d.Auth.Handle(g, http.MethodGet, "/seller/notifications/popup", access.SignedIn, h.popup)
	d.Auth.Handle(g, http.MethodPost, "/seller/notifications/read-status", access.SignedIn, h.readStatus)
	d.Auth.Handle(g, http.MethodGet, "/seller/notifications/:id", access.SignedIn, h.get)
	d.Auth.Handle(g, http.MethodPost, "/admin/notifications", access.AdminOnly, h.post, once)
}

type handlers struct{ store store }

// account is the account the caller works in: the seller's for a team member switched into it.
func account(c echo.Context) int64 { return auth.Caller(c).User.ID }

func (h handlers) list(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id")
	if err != nil {
		return err
	}
	items, total, err := h.store.page(c.Request().Context(), account(c), q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(items, total, q))
}

// Bell is the bell's dropdown: the newest notifications and how many are unread.
type Bell struct {
	Notifications []Notification `json:"notifications"`
	UnreadCount   int            `json:"unread_count"`
}

func (h handlers) bell(c echo.Context) error {
	ctx := c.Request().Context()
	items, err := h.store.latest(ctx, account(c), BellLimit)
	if err != nil {
		return err
	}
	unread, err := h.store.unread(ctx, account(c))
	if err != nil {
		return err
	}
	return envelope.OK(c, Bell{Notifications: items, UnreadCount: unread})
}

func (h handlers) popup(c echo.Context) error {
	items, err := h.store.popup(c.Request().Context(), account(c), PopupLimit)
	if err != nil {
		return err
	}
	return envelope.OK(c, items)
}

// get answers one notification and marks it read, except for an admin impersonating the seller,
// who looks without changing what the seller has read.
func (h handlers) get(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	ctx := c.Request().Context()
	n, err := h.store.get(ctx, account(c), id)
	if errors.Is(err, ErrNotFound) {
		return envelope.Fail(http.StatusNotFound, MsgNotFound)
	}
	if err != nil {
		return err
	}
	if !auth.Caller(c).Impersonating() {
		if _, err := h.store.mark(ctx, markRead, account(c), []int64{id}); err != nil {
			return err
		}
		n.IsNew = false
	}
	return envelope.OK(c, n)
}

type markAllBody struct {
	MarkAllAsRead bool `json:"mark_all_as_read"`
}

func (h handlers) markAll(c echo.Context) error {
	var b markAllBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if !b.MarkAllAsRead {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgMarkAllField, envelope.FieldError{Field: "mark_all_as_read", Message: MsgMarkAllField})
	}
	n, err := h.store.markAllRead(c.Request().Context(), account(c))
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgAllRead, map[string]int64{"marked": n})
}

type readStatusBody struct {
	NotificationIDs []int64 `json:"notification_ids"`
	Action          int     `json:"action"`
}

// readStatus records what the popup reports: ActionDismiss for the ids ticked "Don't show this
// notification", ActionSeen for the TypeOnce notifications it showed. Ids not meant for the
// account are left alone; the answer counts those recorded.
func (h handlers) readStatus(c echo.Context) error {
	var b readStatusBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	var upsert string
	switch b.Action {
	case ActionDismiss:
		upsert = markDismissed
	case ActionSeen:
		upsert = markSeen
	}
	var errs []envelope.FieldError
	switch {
	case len(b.NotificationIDs) == 0:
		errs = append(errs, envelope.FieldError{Field: "notification_ids", Message: MsgNoIDs})
	case len(b.NotificationIDs) > maxIDs:
		errs = append(errs, envelope.FieldError{Field: "notification_ids", Message: MsgTooManyIDs})
	}
	if upsert == "" {
		errs = append(errs, envelope.FieldError{Field: "action", Message: MsgBadAction})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	n, err := h.store.mark(c.Request().Context(), upsert, account(c), b.NotificationIDs)
	if err != nil {
		return err
	}
	return envelope.OK(c, map[string]int64{"updated": n})
}

type postBody struct {
	// SellerID is the seller to notify; absent or null notifies every seller.
	SellerID         *int64 `json:"seller_id"`
	Subject          string `json:"subject"`
	Message          string `json:"message"`
	Image            string `json:"image"`
	CallToActionLink string `json:"call_to_action_link"`
	Type             int    `json:"type"`
	IsWarning        bool   `json:"is_warning"`
}

// post lets an admin notify one seller or all of them.
func (h handlers) post(c echo.Context) error {
	var b postBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if b.SellerID != nil {
		ok, err := h.store.isSeller(ctx, *b.SellerID)
		if err != nil {
			return err
		}
		if !ok {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgNoSuchSeller, envelope.FieldError{Field: "seller_id", Message: MsgNoSuchSeller})
		}
	}
	admin := auth.Caller(c).User.ID
	id, err := Add(ctx, h.store.db, Notification{
		SellerID: b.SellerID, Subject: b.Subject, Message: b.Message, Image: b.Image,
		CallToActionLink: b.CallToActionLink, Type: b.Type, IsWarning: b.IsWarning, CreatedBy: &admin,
	})
	var invalid *InvalidError
	if errors.As(err, &invalid) {
		return envelope.Fail(http.StatusUnprocessableEntity, invalid.Message, envelope.FieldError{Field: invalid.Field, Message: invalid.Message})
	}
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgPosted, map[string]int64{"id": id})
}
