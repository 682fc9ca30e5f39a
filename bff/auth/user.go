package auth

import (
	"slices"
	"time"

	"github.com/pressroom/pressroom/bff/access"
)

// Roles a user may hold.
const (
	RoleSeller   = access.RoleSeller
	RoleDesigner = access.RoleDesigner
	RoleAdmin    = access.RoleAdmin
)

// StatusSuspended is the account status that refuses sign-in and every request.
const StatusSuspended = "suspended"

// User is the session user, as GET /api/me answers it.
type User struct {
	ID                  int64            `json:"id"`
	Name                string           `json:"name"`
	Avatar              *string          `json:"avatar"`
	Email               string           `json:"email"`
	EmailVerifiedAt     *time.Time       `json:"email_verified_at"`
	EmailNeedVerifyDate *string          `json:"email_need_verify_date"`
	CreatedAt           time.Time        `json:"created_at"`
	Phone               string           `json:"phone"`
	Facebook            string           `json:"facebook"`
	Balance             float64          `json:"balance"`
	AccountBalance      []AccountBalance `json:"account_balance"`
	SaleVolume          *string          `json:"sale_volume"`
	Roles               []string         `json:"roles"`
	Tags                []string         `json:"tags"`
	Permissions         []string         `json:"permissions"`
	Status              string           `json:"status"`
	CustomPayment       bool             `json:"custom_payment"`
	IsRef               bool             `json:"is_ref"`
	RefID               *int64           `json:"ref_id"`
	Nickname            string           `json:"nickname"`
	CampaignLimit       int              `json:"campaign_limit"`
	AccessUser          bool             `json:"access_user"`
	TFAEnable           bool             `json:"tfa_enable"`
	TFAConfirm          bool             `json:"tfa_confirm"`
	Timezone            string           `json:"timezone"`
	Currency            string           `json:"currency"`
	StoreIDs            []int64          `json:"store_ids"`
	TeamStoreIDs        []int64          `json:"team_store_ids"`
	SMSCredit           int              `json:"sms_credit"`

	zone *time.Location // Timezone loaded; nil reads as UTC
}

// AccountBalance is one of the user's balances by type.
type AccountBalance struct {
	Type    string  `json:"type"`
	Balance float64 `json:"balance"`
}

// HasRole reports whether the user holds role.
func (u *User) HasRole(role string) bool { return slices.Contains(u.Roles, role) }

// staffLogin reports whether the user signs in through the admin login (designers and admins).
func (u *User) staffLogin() bool { return u.HasRole(RoleAdmin) || u.HasRole(RoleDesigner) }

// Access is what the access rules read of u.
func (u *User) Access() access.User {
	return access.User{
		Roles: u.Roles, Tags: u.Tags, Permissions: u.Permissions, Status: u.Status, CustomPayment: u.CustomPayment,
		IsRef: u.IsRef, AccessUser: u.AccessUser, EmailVerifiedAt: u.EmailVerifiedAt,
		EmailNeedVerifyDate: u.EmailNeedVerifyDate, CreatedAt: u.CreatedAt, TFAEnable: u.TFAEnable,
		TFAConfirm: u.TFAConfirm, StoreIDs: u.StoreIDs, TeamStoreIDs: u.TeamStoreIDs,
	}
}
