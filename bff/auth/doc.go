// Package auth signs users in and out and says who is calling: the seller and admin login calls,
// bearer sessions (256-bit random tokens of which only the SHA-256 is stored, 7-day lifetime,
// revoked on logout), bcrypt password hashes, login throttling per account and per client address
// in Redis, the middleware that puts the caller in the request context, role guards with audited
// refusals, and GET /api/me. Registration, two-factor, impersonation and team switching build on
// it in later work; permissions by feature live with the features.
package auth
