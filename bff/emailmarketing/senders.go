package emailmarketing

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/database"
)

// Messages of the sender calls.
const (
	MsgSenderNotFound  = "Sender not found"
	MsgSenderCreated   = "The sender has been created."
	MsgSenderUpdated   = "The sender has been updated."
	MsgSenderDeleted   = "The sender has been deleted."
	MsgDomainRequired  = "The store domain field is required."
	MsgDomainNotYours  = "The store domain does not belong to your stores."
	MsgUsernameInvalid = "The username must be a valid mailbox name: letters, digits and . _ + - (no leading, trailing or double dots), at most 64 characters."
	MsgNameRequired    = "The name field is required."
	MsgNameTooLong     = "The name may not be greater than 100 characters."
	MsgSenderTaken     = "This address is already a sender."
)

// mailbox is the local part of an address Pressroom lets senders use: dot-separated atoms of
// letters, digits and _ + - (the common subset of RFC 5322's dot-atom that every provider accepts).
var mailbox = regexp.MustCompile(`^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*$`)

// Sender is an email sender of a store domain, with the address it makes.
type Sender struct {
	ID            int64     `db:"id" json:"id"`
	StoreDomainID int64     `db:"store_domain_id" json:"store_domain_id"`
	Username      string    `db:"username" json:"username"`
	Name          string    `db:"name" json:"name"`
	Domain        string    `db:"domain" json:"domain"`
	Email         string    `db:"email" json:"email"`
	CreatedAt     time.Time `db:"created_at" json:"created_at"`
	UpdatedAt     time.Time `db:"updated_at" json:"updated_at"`
}

// Domain is a store domain senders can use.
type Domain struct {
	ID         int64      `db:"id" json:"id"`
	StoreID    int64      `db:"store_id" json:"store_id"`
	Domain     string     `db:"domain" json:"domain"`
	VerifiedAt *time.Time `db:"verified_at" json:"verified_at"`
}

const senderColumns = `s.id, s.store_domain_id, s.username, s.name, d.domain, s.username || '@' || d.domain AS email, s.created_at, s.updated_at`

// senderFrom joins senders to their domains, limited to the stores in $1.
const senderFrom = ` FROM email_senders s JOIN store_domains d ON d.id = s.store_domain_id WHERE d.store_id = ANY($1)`

func (s *Service) handleDomains(c echo.Context) error {
	ctx := c.Request().Context()
	stores, err := s.stores(ctx, c)
	if err != nil {
		return err
	}
	out := []Domain{}
	err = s.d.DB.SelectContext(ctx, &out, `SELECT id, store_id, domain, verified_at FROM store_domains WHERE store_id = ANY($1) ORDER BY id`,
		pq.Array(storeIDs(stores)))
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

func (s *Service) handleSenders(c echo.Context) error {
	q, err := envelope.ParseListQuery(c, "id", "name", "username")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	stores, err := s.stores(ctx, c)
	if err != nil {
		return err
	}
	ids := pq.Array(storeIDs(stores))
	const match = ` AND ($2 = '' OR s.name ILIKE '%' || $2 || '%' OR s.username ILIKE '%' || $2 || '%')`
	var total int
	if err := s.d.DB.GetContext(ctx, &total, `SELECT count(*)`+senderFrom+match, ids, q.Q); err != nil {
		return err
	}
	dir := " DESC"
	if q.OrderAsc {
		dir = " ASC"
	}
	// q.OrderBy is one of the names ParseListQuery allowed.
	page := []Sender{}
	err = s.d.DB.SelectContext(ctx, &page, `SELECT `+senderColumns+senderFrom+match+` ORDER BY s.`+q.OrderBy+dir+`, s.id DESC LIMIT $3 OFFSET $4`,
		ids, q.Q, q.PerPage, q.Offset())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, envelope.NewPage(page, total, q))
}

// sender is the caller's sender id, or 'Sender not found'.
func (s *Service) sender(c echo.Context) (Sender, error) {
	id, stores, err := s.pathID(c, MsgSenderNotFound)
	if err != nil {
		return Sender{}, err
	}
	var out Sender
	err = s.d.DB.GetContext(c.Request().Context(), &out, `SELECT `+senderColumns+senderFrom+` AND s.id = $2`, pq.Array(stores), id)
	if isNoRows(err) {
		return Sender{}, envelope.Fail(http.StatusNotFound, MsgSenderNotFound)
	}
	return out, err
}

func (s *Service) handleSender(c echo.Context) error {
	out, err := s.sender(c)
	if err != nil {
		return err
	}
	return envelope.OK(c, out)
}

type senderBody struct {
	StoreDomainID int64  `json:"store_domain_id"`
	Username      string `json:"username"`
	Name          string `json:"name"`
}

// validate checks the fields of a create (withDomain) or an update, trimming them in place.
func (b *senderBody) validate(withDomain bool) error {
	b.Username, b.Name = strings.TrimSpace(b.Username), strings.TrimSpace(b.Name)
	var errs []envelope.FieldError
	if withDomain && b.StoreDomainID <= 0 {
		errs = append(errs, envelope.FieldError{Field: "store_domain_id", Message: MsgDomainRequired})
	}
	if len(b.Username) > 64 || !mailbox.MatchString(b.Username) {
		errs = append(errs, envelope.FieldError{Field: "username", Message: MsgUsernameInvalid})
	}
	switch {
	case b.Name == "":
		errs = append(errs, envelope.FieldError{Field: "name", Message: MsgNameRequired})
	case len([]rune(b.Name)) > 100:
		errs = append(errs, envelope.FieldError{Field: "name", Message: MsgNameTooLong})
	}
	if len(errs) > 0 {
		return envelope.Fail(http.StatusUnprocessableEntity, errs[0].Message, errs...)
	}
	return nil
}

// taken turns the unique-address violation into its field error.
func taken(err error) error {
	if database.UniqueViolation(err) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgSenderTaken, envelope.FieldError{Field: "username", Message: MsgSenderTaken})
	}
	return err
}

func (s *Service) handleCreateSender(c echo.Context) error {
	var b senderBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := b.validate(true); err != nil {
		return err
	}
	ctx := c.Request().Context()
	stores, err := s.stores(ctx, c)
	if err != nil {
		return err
	}
	const q = `INSERT INTO email_senders (store_domain_id, username, name)
SELECT id, $3, $4 FROM store_domains WHERE id = $2 AND store_id = ANY($1) RETURNING id`
	var id int64
	err = s.d.DB.GetContext(ctx, &id, q, pq.Array(storeIDs(stores)), b.StoreDomainID, b.Username, b.Name)
	if isNoRows(err) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgDomainNotYours, envelope.FieldError{Field: "store_domain_id", Message: MsgDomainNotYours})
	}
	if err != nil {
		return taken(err)
	}
	out, err := s.senderByID(ctx, id)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgSenderCreated, out)
}

func (s *Service) senderByID(ctx context.Context, id int64) (Sender, error) {
	var out Sender
	err := s.d.DB.GetContext(ctx, &out, `SELECT `+senderColumns+` FROM email_senders s JOIN store_domains d ON d.id = s.store_domain_id WHERE s.id = $1`, id)
	return out, err
}

func (s *Service) handleUpdateSender(c echo.Context) error {
	cur, err := s.sender(c)
	if err != nil {
		return err
	}
	var b senderBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := b.validate(false); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.d.DB.ExecContext(ctx, `UPDATE email_senders SET username = $2, name = $3, updated_at = now() WHERE id = $1`,
		cur.ID, b.Username, b.Name); err != nil {
		return taken(err)
	}
	out, err := s.senderByID(ctx, cur.ID)
	if err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgSenderUpdated, out)
}

func (s *Service) handleDeleteSender(c echo.Context) error {
	cur, err := s.sender(c)
	if err != nil {
		return err
	}
	if _, err := s.d.DB.ExecContext(c.Request().Context(), `DELETE FROM email_senders WHERE id = $1`, cur.ID); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgSenderDeleted, nil)
}

// SenderStatus is the verification state of a sender's domain.
type SenderStatus struct {
	ID         int64      `json:"id"`
	Email      string     `json:"email"`
	Domain     string     `json:"domain"`
	Verified   bool       `json:"verified"`
	Status     string     `json:"status"`
	VerifiedAt *time.Time `json:"verified_at"`
}

func (s *Service) handleSenderStatus(c echo.Context) error {
	cur, err := s.sender(c)
	if err != nil {
		return err
	}
	var verifiedAt *time.Time
	if err := s.d.DB.GetContext(c.Request().Context(), &verifiedAt, `SELECT verified_at FROM store_domains WHERE id = $1`, cur.StoreDomainID); err != nil {
		return err
	}
	st := SenderStatus{ID: cur.ID, Email: cur.Email, Domain: cur.Domain, Verified: verifiedAt != nil, Status: "pending", VerifiedAt: verifiedAt}
	if st.Verified {
		st.Status = "verified"
	}
	return envelope.OK(c, st)
}
