// Package publicapi is the public REST API under /api/v1 (docs/api.md), for sellers' own software:
// stores, campaigns and orders with their shipments, read with an API key of bff/apikeys sent as a
// bearer token. Answers use the envelope and list pages of bff/envelope. Each key has a request
// budget per window counted in Redis (platform/ratelimit), so it holds across bff processes; every
// answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset, and a spent budget is
// answered 429 with Retry-After. The OpenAPI document of the API is embedded (openapi.json) and
// served at /api/v1/openapi.json; a test holds it equal to the routes.
//
// It is not the screens' API (/api/seller/..., session tokens) and it moves no money.
package publicapi
