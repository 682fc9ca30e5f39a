// Package survey is the bff side of the seller survey (docs/shell.md): POST /api/seller/survey
// checks the sale volume against its list, the Facebook URL
// rule and the phone, stores what the seller lacked, and upgrades the account to Tier 2 on its first
// completion. It checks every rule the UI checks, with field errors, because the browser is not
// trusted.
//
// The tier is kept on users (tier, survey_completed_at) and read by whatever grants its benefits;
// GET /api/me does not report it (the UI has no use for it). When the survey shows is the UI's
// rule (ui/src/survey); this package only refuses designers, admins and team members, for whom the
// survey is disabled, and a team member working in a seller's account.
package survey
