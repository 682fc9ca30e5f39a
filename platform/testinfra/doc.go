// Package testinfra gives tests the real Postgres and Redis that scripts/test starts: a fresh,
// migrated database per call (cloned from a migrated template, dropped afterwards) and a Redis
// database of its own, flushed, per call. Without PRESSROOM_TEST_DATABASE_URL or
// PRESSROOM_TEST_REDIS_ADDR the tests that need them skip, unless PRESSROOM_TEST_REQUIRE_INFRA=1
// (set by scripts/test), when they fail: CI must never pass by skipping.
package testinfra
