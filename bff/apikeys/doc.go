// Package apikeys is the seller's API keys (docs/api.md): the settings endpoints that create, list
// and revoke them (the secret is answered once, at creation; only its SHA-256 is stored), and the
// middleware that admits a key on the public API. A key works only as a bearer token on /api/v1:
// the session guard of bff/auth never reads api_keys, and Authenticate never reads sessions or
// cookies. Keys are looked up on every request without a cache, so a revoked or expired key is
// refused on the very next call. Every use is audited (audit_events, action api_key.use) and moves
// the key's last_used_at.
//
// It does not serve the public API itself (bff/publicapi) or count requests (the rate limit is
// publicapi's).
package apikeys
