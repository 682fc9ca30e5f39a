package team

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/labstack/echo/v4"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/bff/access"
	"github.com/pressroom/pressroom/bff/auth"
	"github.com/pressroom/pressroom/bff/envelope"
	"github.com/pressroom/pressroom/platform/database"
	pmail "github.com/pressroom/pressroom/platform/mail"
)

// Messages of the team calls.
const (
	MsgInvited         = "The invitation has been sent."
	MsgAlreadyInvited  = "This address already has an open invitation."
	MsgAlreadyMember   = "This account is already in the team."
	MsgNotYours        = "This invitation is for another e-mail address."
	MsgInviteNotFound  = "Invitation not found."
	MsgMemberNotFound  = "Team member not found."
	MsgJoined          = "You have joined the team. Use Switch Account to work in it."
	MsgBadPermission   = "The permissions contain an unknown permission."
	MsgCannotInviteYou = "You cannot invite yourself."
)

// Deps are what the team routes use.
type Deps struct {
	DB     *sqlx.DB
	Auth   *auth.Service
	Mailer *pmail.Mailer
	// PublicURL is the dashboard's address, the base of the invitation link.
	PublicURL string
}

// Member is one member of the caller's team.
type Member struct {
	ID          int64          `db:"id" json:"id"`
	Name        string         `db:"name" json:"name"`
	Email       string         `db:"email" json:"email"`
	Role        string         `db:"role" json:"role"`
	Permissions pq.StringArray `db:"permissions" json:"permissions"`
	CreatedAt   time.Time      `db:"created_at" json:"created_at"`
}

// Invitation is an open invitation to a seller's team.
type Invitation struct {
	ID          int64          `db:"id" json:"id"`
	SellerID    int64          `db:"seller_id" json:"seller_id"`
	SellerName  string         `db:"seller_name" json:"seller_name"`
	Email       string         `db:"email" json:"email"`
	Permissions pq.StringArray `db:"permissions" json:"permissions"`
	CreatedAt   time.Time      `db:"created_at" json:"created_at"`
}

// Routes lists the team endpoints under g (mounted at /api). Managing the team needs get_users and
// the seller's own session (not a team member switched in); changing who may do what (permissions,
// removals, invitations) is refused to an impersonating admin. once makes a create safe to repeat (the
// Idempotency-Key header, see bff/idempotency).
func Routes(g *echo.Group, d Deps, once echo.MiddlewareFunc) {
	manage := access.Need{Permission: access.GetUsers, OwnAccount: true}
	change := access.Need{Permission: access.GetUsers, OwnAccount: true, NotImpersonating: true}
	d.Auth.Handle(g, http.MethodGet, "/team/members", manage, d.handleMembers)
	d.Auth.Handle(g, http.MethodPut, "/team/members/:id", change, d.handleSetPermissions)
	d.Auth.Handle(g, http.MethodDelete, "/team/members/:id", change, d.handleRemove)
	d.Auth.Handle(g, http.MethodGet, "/team/invitations", manage, d.handleSent)
	d.Auth.Handle(g, http.MethodPost, "/team/invitations", change, d.handleInvite, once)
	d.Auth.Handle(g, http.MethodGet, "/team/invitations/received", access.Need{NotImpersonating: true, OwnAccount: true}, d.handleReceived)
	d.Auth.Handle(g, http.MethodPost, "/team/invitations/:id/accept", access.Need{NotImpersonating: true, OwnAccount: true}, d.handleAccept)
}

func checkPermissions(perms []string) error {
	for _, p := range perms {
		if !slices.Contains(access.Permissions, p) {
			return envelope.Fail(http.StatusUnprocessableEntity, MsgBadPermission, envelope.FieldError{Field: "permissions", Message: MsgBadPermission})
		}
	}
	return nil
}

func (d Deps) handleMembers(c echo.Context) error {
	const q = `
SELECT u.id, u.name, u.email, t.role, t.permissions, t.created_at
FROM team_members t JOIN users u ON u.id = t.member_id WHERE t.seller_id = $1 ORDER BY u.name, u.id`
	out := []Member{}
	if err := d.DB.SelectContext(c.Request().Context(), &out, q, auth.Caller(c).User.ID); err != nil {
		return fmt.Errorf("list team: %w", err)
	}
	return envelope.OK(c, out)
}

type permissionsBody struct {
	Permissions []string `json:"permissions"`
}

func (d Deps) handleSetPermissions(c echo.Context) error {
	var b permissionsBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	if err := checkPermissions(b.Permissions); err != nil {
		return err
	}
	const q = `UPDATE team_members SET permissions = $3 WHERE seller_id = $1 AND member_id = $2`
	res, err := d.DB.ExecContext(c.Request().Context(), q, auth.Caller(c).User.ID, envelope.PathID(c), database.TextArray(b.Permissions))
	if err != nil {
		return fmt.Errorf("set team permissions: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return envelope.Fail(http.StatusNotFound, MsgMemberNotFound)
	}
	return envelope.OKMessage(c, "The permissions have been saved.", nil)
}

func (d Deps) handleRemove(c echo.Context) error {
	const q = `DELETE FROM team_members WHERE seller_id = $1 AND member_id = $2`
	res, err := d.DB.ExecContext(c.Request().Context(), q, auth.Caller(c).User.ID, envelope.PathID(c))
	if err != nil {
		return fmt.Errorf("remove team member: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return envelope.Fail(http.StatusNotFound, MsgMemberNotFound)
	}
	return envelope.OKMessage(c, "The team member has been removed.", nil)
}

const invitationColumns = `i.id, i.seller_id, s.name AS seller_name, i.email, i.permissions, i.created_at`

func (d Deps) handleSent(c echo.Context) error {
	q := `SELECT ` + invitationColumns + ` FROM team_invitations i JOIN users s ON s.id = i.seller_id
WHERE i.seller_id = $1 AND i.accepted_at IS NULL ORDER BY i.id DESC`
	out := []Invitation{}
	if err := d.DB.SelectContext(c.Request().Context(), &out, q, auth.Caller(c).User.ID); err != nil {
		return fmt.Errorf("list invitations: %w", err)
	}
	return envelope.OK(c, out)
}

type inviteBody struct {
	Email       string   `json:"email"`
	Permissions []string `json:"permissions"`
}

func (d Deps) handleInvite(c echo.Context) error {
	var b inviteBody
	if err := envelope.Bind(c, &b); err != nil {
		return err
	}
	b.Email = strings.TrimSpace(b.Email)
	if a, err := mail.ParseAddress(b.Email); err != nil || a.Address != b.Email || len(b.Email) > 254 {
		msg := "The email must be a valid email address."
		return envelope.Fail(http.StatusUnprocessableEntity, msg, envelope.FieldError{Field: "email", Message: msg})
	}
	if err := checkPermissions(b.Permissions); err != nil {
		return err
	}
	seller := auth.Caller(c).User
	if strings.EqualFold(seller.Email, b.Email) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgCannotInviteYou, envelope.FieldError{Field: "email", Message: MsgCannotInviteYou})
	}
	ctx := c.Request().Context()
	var member bool
	const isMember = `SELECT EXISTS (SELECT 1 FROM team_members t JOIN users u ON u.id = t.member_id WHERE t.seller_id = $1 AND lower(u.email) = lower($2))`
	if err := d.DB.GetContext(ctx, &member, isMember, seller.ID, b.Email); err != nil {
		return fmt.Errorf("check membership: %w", err)
	}
	if member {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgAlreadyMember, envelope.FieldError{Field: "email", Message: MsgAlreadyMember})
	}
	const insert = `INSERT INTO team_invitations (seller_id, email, permissions) VALUES ($1, $2, $3) RETURNING id`
	var id int64
	err := d.DB.GetContext(ctx, &id, insert, seller.ID, b.Email, database.TextArray(b.Permissions))
	if database.UniqueViolation(err) {
		return envelope.Fail(http.StatusUnprocessableEntity, MsgAlreadyInvited, envelope.FieldError{Field: "email", Message: MsgAlreadyInvited})
	}
	if err != nil {
		return fmt.Errorf("create invitation: %w", err)
	}
	msg := pmail.Message{
		To:      b.Email,
		Subject: seller.Name + " invited you to their Pressroom team",
		Body: "Hello,\n\n" + seller.Name + " invited you to work in their Pressroom seller account. Sign in (or create an " +
			"account with this e-mail address) and accept the invitation here:\n\n" +
			strings.TrimRight(d.PublicURL, "/") + "/team/invitations\n",
	}
	if err := d.Mailer.Send(ctx, msg); err != nil {
		return err
	}
	return envelope.OKMessage(c, MsgInvited, map[string]int64{"id": id})
}

func (d Deps) handleReceived(c echo.Context) error {
	q := `SELECT ` + invitationColumns + ` FROM team_invitations i JOIN users s ON s.id = i.seller_id
WHERE lower(i.email) = lower($1) AND i.accepted_at IS NULL ORDER BY i.id DESC`
	out := []Invitation{}
	if err := d.DB.SelectContext(c.Request().Context(), &out, q, auth.Caller(c).User.Email); err != nil {
		return fmt.Errorf("list received invitations: %w", err)
	}
	return envelope.OK(c, out)
}

// handleAccept joins the caller to the inviting seller's team with the invitation's permissions.
// Only the account whose e-mail address was invited may accept, and only once it is verified.
func (d Deps) handleAccept(c echo.Context) error {
	me := auth.Caller(c).User
	ctx := c.Request().Context()
	err := accept(ctx, d.DB, envelope.PathID(c), me.ID, me.Email)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return envelope.Fail(http.StatusNotFound, MsgInviteNotFound)
	case errors.Is(err, errNotYours):
		return envelope.Fail(http.StatusForbidden, MsgNotYours)
	case err != nil:
		return err
	}
	return envelope.OKMessage(c, MsgJoined, nil)
}

var errNotYours = errors.New("invitation for another address")

func accept(ctx context.Context, db *sqlx.DB, id, memberID int64, email string) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var inv struct {
		SellerID    int64          `db:"seller_id"`
		Email       string         `db:"email"`
		Permissions pq.StringArray `db:"permissions"`
	}
	const load = `SELECT seller_id, email, permissions FROM team_invitations WHERE id = $1 AND accepted_at IS NULL FOR UPDATE`
	if err := tx.GetContext(ctx, &inv, load, id); err != nil {
		return err
	}
	if !strings.EqualFold(inv.Email, email) || inv.SellerID == memberID {
		return errNotYours
	}
	const join = `
INSERT INTO team_members (seller_id, member_id, role, permissions) VALUES ($1, $2, 'staff', $3)
ON CONFLICT (seller_id, member_id) DO UPDATE SET permissions = EXCLUDED.permissions`
	if _, err := tx.ExecContext(ctx, join, inv.SellerID, memberID, inv.Permissions); err != nil {
		return fmt.Errorf("join team: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE team_invitations SET accepted_at = now() WHERE id = $1`, id); err != nil {
		return fmt.Errorf("accept invitation: %w", err)
	}
	return tx.Commit()
}
