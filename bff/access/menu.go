package access

// Menu items of the top bar and the menu (docs/team-and-access.md), by the ids the UI's menu uses.
const (
	MenuOverview         = "dashboard.overview"
	MenuReferral         = "dashboard.referral"
	MenuContest          = "dashboard.contest"
	MenuCalendar         = "dashboard.calendar"
	MenuDesign           = "design"
	MenuOrders           = "orders.all"
	MenuAbandoned        = "orders.abandoned"
	MenuCrossSelling     = "orders.cross_selling"
	MenuCustomers        = "orders.customers"
	MenuFulfillOrders    = "orders.fulfill"
	MenuInvalidAddress   = "orders.invalid_address"
	MenuCancelOrders     = "orders.cancel"
	MenuCampaigns        = "campaigns.all"
	MenuPromotions       = "campaigns.promotions"
	MenuCollections      = "campaigns.collections"
	MenuPricing          = "campaigns.pricing"
	MenuBulkCampaigns    = "campaigns.bulk"
	MenuOnPromotion      = "campaigns.on_promotion"
	MenuPersonalized     = "personalized"
	MenuEmailMarketing   = "email_marketing"
	MenuStorefronts      = "storefronts"
	MenuProductReviews   = "storefronts.product_reviews"
	MenuStockStatus      = "products.stock_status"
	MenuBilling          = "billing"
	MenuGeneralSettings  = "settings.general"
	MenuPaymentAccounts  = "settings.payment_accounts"
	MenuPaymentGateways  = "settings.payment_gateways"
	MenuDomains          = "settings.domains"
	MenuTeam             = "settings.team"
	MenuNotifications    = "settings.notifications"
	MenuAPIKeys          = "settings.api_keys"
	MenuAIDesign         = "topbar.ai_design"
	MenuBell             = "topbar.bell"
	MenuBalance          = "topbar.balance"
	MenuVerifyBanner     = "topbar.verify_email_banner"
	MenuMyAccount        = "user.my_account"
	MenuSwitchAccount    = "user.switch_account"
	MenuBackToMyAccount  = "user.back_to_my_account"
	MenuBackToAdmin      = "user.back_to_admin"
	MenuAdmin            = "admin"
	MenuChat             = "chat"
	MenuSellerSurvey     = "seller_survey"
	MenuNotificationsPop = "notifications_popup"
)

// Context is where the user is: the dashboard host, the deployment's capabilities and the time.
type Context struct {
	Host string `json:"host"`
	// BulkV3 is the bulk v3 capability the Bulk campaigns item requires.
	BulkV3 bool `json:"bulk_v3"`
}

type menuRule struct {
	id      string
	visible func(u User, c Context) bool
}

func always(User, Context) bool { return true }

func can(p string) func(User, Context) bool { return func(u User, _ Context) bool { return Can(u, p) } }

func notInAuthorized(u User, _ Context) bool { return !IsAuthorizedAccount(u) }

// ownSession: not working through another account (neither switched into it nor impersonating it).
func ownSession(u User, _ Context) bool { return !u.AccessUser }

// menu is the menu in order with each item's gate.
var menu = []menuRule{
	{MenuOverview, can(GetReports)},
	{MenuReferral, func(u User, _ Context) bool { return !u.IsRef }},
	{MenuContest, always},
	{MenuCalendar, always},
	{MenuOrders, can(GetOrders)},
	{MenuAbandoned, can(GetOrders)},
	{MenuCrossSelling, can(GetOrders)},
	{MenuCustomers, can(GetOrders)},
	{MenuFulfillOrders, can(GetOrders)},
	{MenuInvalidAddress, func(u User, _ Context) bool { return u.CustomPayment && Can(u, GetOrders) }},
	{MenuCancelOrders, func(u User, _ Context) bool { return u.CustomPayment && Can(u, GetOrders) }},
	{MenuCampaigns, can(GetCampaigns)},
	{MenuPromotions, can(GetCampaigns)},
	{MenuCollections, can(GetCampaigns)},
	{MenuPricing, func(u User, _ Context) bool { return u.HasTag(TagPricing) && Can(u, UpdateCampaign) }},
	{MenuBulkCampaigns, func(u User, c Context) bool {
		return Can(u, GetCampaigns) && (c.BulkV3 || u.HasTag(TagOldBulkCampaign))
	}},
	{MenuOnPromotion, can(GetCampaigns)},
	{MenuPersonalized, func(u User, _ Context) bool {
		return (u.HasTag(TagPB) || u.HasTag(TagPersonalized)) && Can(u, UpdateCampaign)
	}},
	{MenuEmailMarketing, func(u User, _ Context) bool { return u.HasTag(TagEmailMarketing) && Can(u, UpdateCampaign) }},
	{MenuStorefronts, always},
	{MenuProductReviews, always},
	{MenuStockStatus, always},
	{MenuBilling, can(GetPayments)},
	{MenuGeneralSettings, notInAuthorized},
	{MenuPaymentAccounts, can(UpdatePayments)},
	{MenuPaymentGateways, func(u User, _ Context) bool { return u.CustomPayment && Can(u, GetPayments) }},
	{MenuDomains, always},
	{MenuTeam, func(u User, _ Context) bool { return !IsAuthorizedAccount(u) && Can(u, GetUsers) }},
	{MenuNotifications, notInAuthorized},
	{MenuAPIKeys, always},
	{MenuAIDesign, func(u User, _ Context) bool { return u.HasTag(TagBeta) }},
	{MenuBell, func(u User, _ Context) bool { return u.HasTag(TagNotify) }},
	{MenuBalance, can(GetPayments)},
	{MenuMyAccount, ownSession},
	{MenuSwitchAccount, ownSession},
	{MenuBackToMyAccount, func(u User, _ Context) bool { return InAuthorizedAccount(u) }},
	{MenuBackToAdmin, func(u User, _ Context) bool { return Impersonated(u) }},
	{MenuChat, ownSession},
	{MenuSellerSurvey, always},
	{MenuNotificationsPop, func(u User, _ Context) bool { return !u.HasTag(TagHideNotifyModal) }},
}

// fulfillmentMenu is all a fulfillment-domain user sees.
var fulfillmentMenu = map[string]bool{MenuFulfillOrders: true, MenuStorefronts: true, MenuBilling: true}

// Menu lists the ids of the items u sees, in menu order. Designers see only the Design area,
// admins (outside a seller's account) only the Admin area and My Account;
// fulfillment-domain users only Fulfill Orders, Storefronts and Billing & Payouts; the fulfill tag
// moves Fulfill Orders to the top. The e-mail banner shows for non-designers with an unverified
// e-mail.
func Menu(u User, c Context) []string {
	if IsDesigner(u) {
		return []string{MenuDesign}
	}
	if IsAdmin(u) && IsAuthorizedAccount(u) {
		return []string{MenuAdmin, MenuMyAccount}
	}
	items := []string{}
	fulfillDomain := IsFulfillmentDomain(c.Host)
	for _, r := range menu {
		if fulfillDomain && !fulfillmentMenu[r.id] {
			continue
		}
		if !r.visible(u, c) {
			continue
		}
		if r.id == MenuFulfillOrders && u.HasTag(TagFulfill) {
			items = append([]string{r.id}, items...)
			continue
		}
		items = append(items, r.id)
	}
	if u.EmailVerifiedAt == nil {
		items = append(items, MenuVerifyBanner)
	}
	return items
}
