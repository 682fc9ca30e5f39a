package database

import (
	"context"
	"fmt"
	"sync"

	"github.com/jmoiron/sqlx"
)

// Statements prepares each query it is given once on its database and keeps it, for the queries
// every request runs (the session lookup, list pages). An unprepared query with arguments costs
// lib/pq two round trips (parse, then bind and execute) and Postgres a new plan each time; a
// prepared one costs one round trip and, after a few runs, no planning. database/sql prepares the
// statement again by itself on each new connection.
type Statements struct {
	db *sqlx.DB
	mu sync.Mutex
	m  sync.Map // query text -> *sqlx.Stmt
}

// NewStatements keeps statements prepared on db.
func NewStatements(db *sqlx.DB) *Statements { return &Statements{db: db} }

// Prepared is query prepared on the database, preparing it on first use. Keep the set of query
// texts small and fixed (no values spliced in): each is kept for the life of the process.
func (s *Statements) Prepared(ctx context.Context, query string) (*sqlx.Stmt, error) {
	if st, ok := s.m.Load(query); ok {
		return st.(*sqlx.Stmt), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.m.Load(query); ok {
		return st.(*sqlx.Stmt), nil
	}
	st, err := s.db.PreparexContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare statement: %w", err)
	}
	s.m.Store(query, st)
	return st, nil
}
