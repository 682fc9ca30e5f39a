// Package ratelimit counts what callers spend (requests, bytes, rows) per key in fixed windows in
// Redis, so every process sees the same counts. It decides nothing about keys or messages: each
// caller names its own keys and answers its own refusals. It is not a token bucket: a window
// allows its whole limit at once and starts afresh when it ends.
package ratelimit
