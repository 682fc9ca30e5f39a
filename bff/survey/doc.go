// Package survey is the bff side of the seller survey (spec/app-shell.md §3 "Seller survey", §4, §5,
// §8, §9): POST /api/seller/survey checks the sale volume against the spec's list, the Facebook URL
// rule and the phone, stores what the seller lacked, and upgrades the account to Tier 2 on its first
// completion. It checks every rule the UI checks, with field errors, because the browser is not
// trusted.
//
// The tier is kept on users (tier, survey_completed_at) and read by whatever grants its benefits;
// GET /api/me does not report it (spec §3 lists no such field). When the survey shows is the UI's
// rule (ui/src/survey); this package only refuses designers, admins and team members, for whom the
// survey is disabled, and a team member working in a seller's account.
package survey
