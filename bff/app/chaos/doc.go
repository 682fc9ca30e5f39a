// Package chaos holds Pressroom's whole-system fault tests: the real worker and renderer binaries,
// built from this checkout and run as processes against the test's Postgres, Redis and blob folder,
// are killed with SIGKILL in the middle of a run and restarted, and the run must end as if nothing
// had happened (DESIGN.md "Reliability and security rules": killing any process mid-task loses no
// work, and its result is written exactly once).
//
// The bff runs in the test's own process (bff/app, as its tests assemble it): it creates the work
// through its HTTP API and is never killed. The package has no code outside its tests.
package chaos
