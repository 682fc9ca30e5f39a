// Package idempotency makes a create safe to repeat. A client sends an Idempotency-Key header with
// a creating POST (the UI makes one key per user action and sends it again on a retry); the first
// request with a key runs, and every later one with the same key and the same request gets the
// first answer, replayed, instead of making a second campaign, record or invitation. Concurrent
// duplicates wait for the first to finish. The same key with another request (another body, path
// or account) is refused with 422: the client reused a key by mistake.
//
// Keys belong to the person signed in (a public API request's to its API key, see OnceFor), live for Config.TTL, and are kept in Postgres so that every
// bff process shares them. Only answers that succeeded (2xx) are kept: a failed request leaves no
// key behind, so its retry runs again. Requests without the header run as before.
//
// It is not a lock for state changes that are not creates (sends, starts, approvals guard
// themselves with their own state checks), and it never applies to anonymous routes.
package idempotency
