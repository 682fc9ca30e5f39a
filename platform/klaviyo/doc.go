// Package klaviyo is a small client of Klaviyo's JSON:API (https://a.klaviyo.com/api): reading a
// list to check a private key and list id, and spawning bulk profile import jobs that upsert
// profiles by e-mail and add them to a list. It sends the private-key authorization and the
// pinned revision header on every request, waits out 429 answers for as long as Retry-After says,
// and retries 5xx answers and transport failures with exponential backoff.
//
// It is not a general Klaviyo SDK: only the calls Pressroom's email sync makes are here.
package klaviyo
