// Package archtest holds the rules of what each binary may link, as a test: the bff, the worker
// and the storefront link the task contracts (renderer/tasks, worker/tasks), never a task handler,
// a Chrome driver or an image codec, so that a change to the render farm neither grows nor breaks
// them. The rules, and the reason of each exception, are DependencyRules in deps_test.go.
//
// It has no code of its own outside the test; the package exists so that the rules live in one
// place that `go test ./...` runs.
package archtest
