// Package auth says who is calling and lets them in: the seller and admin login calls, bearer
// sessions (256-bit random tokens of which only the SHA-256 is stored, 7-day lifetime, revoked on
// logout), bcrypt password hashes (a bounded number at once), throttles in Redis that count a guess
// before it is checked and the anonymous account calls before they work, registration, password
// reset and e-mail verification through single-use expiring e-mailed links (stored hashed), TOTP
// two-factor with recovery codes (each code accepted once, one step of clock drift), team switching
// and admin impersonation (sessions that act as a seller for someone else; an impersonation is short
// and re-checked against the admin on every request), suspended accounts refused, one-time codes
// that move a session to another dashboard host, and GET /api/me. The rules in our words:
// docs/accounts.md.
//
// Every /api route is added through Service.Handle with the access.Need it demands; the guard
// built from that value answers 401 or 403 (refusals audited) and audits every request of an
// impersonating admin. What each rule means lives in bff/access, not here.
package auth
