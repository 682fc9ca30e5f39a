// Package database opens Pressroom's Postgres handle (sqlx over lib/pq) and applies the embedded
// goose migrations under a Postgres advisory lock, so every binary may migrate on start and several
// processes starting at once do not race. It holds no queries of any feature: those live in the
// feature packages' stores.
package database
