// Package ping is the system:ping task: a round trip from whoever requests it, through the outbox
// and Redis, to a worker or renderer process that marks the ping done in Postgres. Operators (and
// the tests) use it to prove the queue is wired end to end. It carries no business rules.
package ping
