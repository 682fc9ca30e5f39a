package access

import (
	"slices"
	"strings"
	"time"
)

// Roles.
const (
	RoleSeller   = "seller"
	RoleDesigner = "designer"
	RoleAdmin    = "admin"
)

// Named permissions of authorized (team) accounts.
const (
	GetPayments    = "get_payments"
	UpdatePayments = "update_payments"
	GetOrders      = "get_orders"
	GetCampaigns   = "get_campaigns"
	UpdateCampaign = "update_campaign"
	GetReports     = "get_reports"
	GetUsers       = "get_users"
)

// Permissions lists every named permission, in the order the team screen shows them.
var Permissions = []string{GetPayments, UpdatePayments, GetOrders, GetCampaigns, UpdateCampaign, GetReports, GetUsers}

// Tags that gate parts of the shell.
const (
	TagBeta            = "beta"
	TagNotify          = "notify"
	TagHideNotifyModal = "hide-notify-modal"
	TagOldBulkCampaign = "old bulk campaign"
	TagFulfill         = "fulfill"
	TagPricing         = "pricing"
	TagEmailMarketing  = "email marketing"
	TagPB              = "pb"
	TagPersonalized    = "personalized"
)

// EmailVerificationCutover is the date from which new accounts must verify their e-mail.
var EmailVerificationCutover = time.Date(2024, time.July, 29, 0, 0, 0, 0, time.UTC)

// EmailVerificationGrace is how long after the requirement date older accounts may stay unverified.
const EmailVerificationGrace = 30 * 24 * time.Hour

// User is what the rules read of the session user; the JSON names are those of GET /api/me.
type User struct {
	Roles               []string   `json:"roles"`
	Tags                []string   `json:"tags"`
	Permissions         []string   `json:"permissions"`
	Status              string     `json:"status"`
	CustomPayment       bool       `json:"custom_payment"`
	IsRef               bool       `json:"is_ref"`
	AccessUser          bool       `json:"access_user"`
	EmailVerifiedAt     *time.Time `json:"email_verified_at"`
	EmailNeedVerifyDate *string    `json:"email_need_verify_date"`
	CreatedAt           time.Time  `json:"created_at"`
	TFAEnable           bool       `json:"tfa_enable"`
	TFAConfirm          bool       `json:"tfa_confirm"`
	StoreIDs            []int64    `json:"store_ids"`
	TeamStoreIDs        []int64    `json:"team_store_ids"`
}

// HasRole reports whether u holds role.
func (u User) HasRole(role string) bool { return slices.Contains(u.Roles, role) }

// HasTag reports whether u carries tag.
func (u User) HasTag(tag string) bool { return slices.Contains(u.Tags, tag) }

// IsDesigner: roles contain designer.
func IsDesigner(u User) bool { return u.HasRole(RoleDesigner) }

// IsAdmin: roles contain admin (the bff's own role for the admin endpoints).
func IsAdmin(u User) bool { return u.HasRole(RoleAdmin) }

// Impersonated: an admin acting as the seller (access_user on a seller's own roles), as opposed to
// a team member switched into the account (InAuthorizedAccount).
func Impersonated(u User) bool { return u.AccessUser && !IsAuthorizedAccount(u) }

// IsAuthorizedAccount: a user with a roles list that does not include seller (staff, team member,
// designer, admin) needs a named permission for each permission check.
func IsAuthorizedAccount(u User) bool { return len(u.Roles) > 0 && !u.HasRole(RoleSeller) }

// InAuthorizedAccount: the session works in another seller's account (a team member who switched),
// so My Account, Switch Account and chat are hidden and Back To My Account is shown.
func InAuthorizedAccount(u User) bool { return u.AccessUser && IsAuthorizedAccount(u) }

// IsTrusted: status trusted.
func IsTrusted(u User) bool { return u.Status == "trusted" }

// Can is the permission check: sellers and users without roles pass every check; authorized
// accounts need the named permission.
func Can(u User, permission string) bool {
	return !IsAuthorizedAccount(u) || slices.Contains(u.Permissions, permission)
}

// IsFulfillmentDomain: the dashboard host's name starts with "fulfill".
func IsFulfillmentDomain(host string) bool {
	return strings.HasPrefix(strings.ToLower(hostname(host)), "fulfill")
}

func hostname(host string) string {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		return host[:i]
	}
	return host
}

// NeedsTFA: two-factor is on but this session has not entered a code yet; the UI sends the user to
// /auth/tfa and the bff refuses everything but the two-factor calls.
func NeedsTFA(u User) bool { return u.TFAEnable && !u.TFAConfirm }

// MustVerifyEmail is the e-mail verification rule (docs/shell.md, redirect rules): not a sub-account session
// (access_user), e-mail unverified, not a designer, and the account was created on or after the
// verification-requirement date or that date is 30 or more days past. The requirement date is the
// user's email_need_verify_date when set, else the cut-over 2024-07-29.
func MustVerifyEmail(u User, now time.Time) bool {
	if u.AccessUser || u.EmailVerifiedAt != nil || IsDesigner(u) {
		return false
	}
	due := EmailVerificationCutover
	if u.EmailNeedVerifyDate != nil {
		if d, err := time.Parse(time.DateOnly, *u.EmailNeedVerifyDate); err == nil {
			due = d
		}
	}
	return !u.CreatedAt.Before(due) || !now.Before(due.Add(EmailVerificationGrace))
}

// StoreFilter is the store filter rule: a user with access_user and a non-empty store_ids (or, when
// that is empty, team_store_ids) list sees only the requested stores in that list; others see all
// requested stores.
func StoreFilter(u User, requested []int64) []int64 {
	allowed := u.StoreIDs
	if len(allowed) == 0 {
		allowed = u.TeamStoreIDs
	}
	if !u.AccessUser || len(allowed) == 0 {
		return requested
	}
	out := []int64{}
	for _, id := range requested {
		if slices.Contains(allowed, id) {
			out = append(out, id)
		}
	}
	return out
}

// Store domains of the base store URL rule.
const (
	DomainPreview     = "preview"
	DomainMarketplace = "marketplace"
)

// StoreDomain is the base store URL rule: custom_payment users, and users whose status is neither
// verified nor trusted, get the preview domain; the others the marketplace domain.
func StoreDomain(u User) string {
	if u.CustomPayment || (u.Status != "verified" && u.Status != "trusted") {
		return DomainPreview
	}
	return DomainMarketplace
}

// Login endpoints.
const (
	SellerLogin = "/auth/seller/login"
	AdminLogin  = "/auth/admin/login"
)

// LoginEndpoint is the admin login for the designer variant (host name containing "designer", or
// the designer query parameter present), else the seller login.
func LoginEndpoint(host string, designerQuery bool) string {
	if designerQuery || strings.Contains(strings.ToLower(hostname(host)), "designer") {
		return AdminLogin
	}
	return SellerLogin
}

// NeedsSellerCentre: a custom_payment user on a domain that is not a custom-payment domain has token
// and user cleared and is sent to the seller-centre callback.
func NeedsSellerCentre(u User, customPaymentDomain bool) bool {
	return u.CustomPayment && !customPaymentDomain
}
