package access

import (
	"slices"
	"strings"
)

// Need is what a route demands of its caller. Every /api route declares one; bff/auth turns it into
// the route's guard and keeps it for the route-table test, so the declaration and the enforcement
// are the same value.
type Need struct {
	// Public routes take anyone, signed in or not (login, register, password reset).
	Public bool
	// Roles, when set, admit only callers holding one of them (admin, designer).
	Roles []string
	// Permission, when set, admits callers passing Can for it: sellers, users without roles, and
	// authorized accounts holding it; designers and admins (authorized accounts without it) do not.
	Permission string
	// Tag, when set, admits only callers whose account carries it (the feature tags,
	// such as "email marketing"); it is checked together with Permission, never instead of it.
	Tag string
	// CustomPayment admits only callers whose account takes payments through its own gateway
	// (custom_payment); checked together with Permission.
	CustomPayment bool
	// Pending admits a session that still owes a two-factor code or an e-mail verification: the
	// calls that settle those (me, logout, the two-factor and verification calls). Every other
	// signed-in route refuses such a session with 403.
	Pending bool
	// NotImpersonating refuses the call while an admin impersonates the account (password, e-mail
	// and two-factor changes).
	NotImpersonating bool
	// OwnAccount refuses the call while a team member works in a seller's account it switched into
	// (team management, general and notification settings).
	OwnAccount bool
}

// Declarations of the common kinds.
var (
	// Anyone: no session needed.
	Anyone = Need{Public: true}
	// SignedIn: any live session that owes nothing.
	SignedIn = Need{}
	// SignedInPending: any live session, even one owing a two-factor code or e-mail verification.
	SignedInPending = Need{Pending: true}
	// AdminOnly: the admin role.
	AdminOnly = Need{Roles: []string{RoleAdmin}}
)

// Permitted is a session route needing permission.
func Permitted(permission string) Need { return Need{Permission: permission} }

// Caller is who makes a request, as the guard checks it.
type Caller struct {
	User User
	// Impersonating is set while an admin acts as the user.
	Impersonating bool
	// Switched is set while a team member works in a seller's account.
	Switched bool
	// MustVerifyEmail and NeedsTFA are the session's open obligations.
	MustVerifyEmail, NeedsTFA bool
}

// Allows reports whether c may call a route declaring n; c is nil for an anonymous request. The
// caller of Allows answers 401 for an anonymous caller refused and 403 for a signed-in one.
func (n Need) Allows(c *Caller) bool {
	if n.Public {
		return true
	}
	if c == nil {
		return false
	}
	if !n.Pending && (c.NeedsTFA || c.MustVerifyEmail) {
		return false
	}
	if n.NotImpersonating && c.Impersonating {
		return false
	}
	if n.OwnAccount && c.Switched {
		return false
	}
	if len(n.Roles) > 0 && !slices.ContainsFunc(n.Roles, c.User.HasRole) {
		return false
	}
	if n.Tag != "" && !c.User.HasTag(n.Tag) {
		return false
	}
	if n.CustomPayment && !c.User.CustomPayment {
		return false
	}
	return n.Permission == "" || Can(c.User, n.Permission)
}

// String describes n for logs and test failures.
func (n Need) String() string {
	if n.Public {
		return "public"
	}
	parts := []string{"signed-in"}
	if len(n.Roles) > 0 {
		parts = append(parts, "role "+strings.Join(n.Roles, "|"))
	}
	if n.Permission != "" {
		parts = append(parts, "permission "+n.Permission)
	}
	if n.Tag != "" {
		parts = append(parts, "tag "+n.Tag)
	}
	if n.CustomPayment {
		parts = append(parts, "custom payment")
	}
	if n.Pending {
		parts = append(parts, "pending allowed")
	}
	if n.NotImpersonating {
		parts = append(parts, "not impersonating")
	}
	if n.OwnAccount {
		parts = append(parts, "own account")
	}
	return strings.Join(parts, ", ")
}
