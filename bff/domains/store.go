package domains

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"github.com/pressroom/pressroom/platform/customdomain"
	"github.com/pressroom/pressroom/platform/database"
)

// Errors of the store.
var (
	// ErrNotFound: no such domain on the caller's visible stores.
	ErrNotFound = errors.New("domain not found")
	// ErrTaken: the domain is already on a store (Postgres 23505 on the domain key).
	ErrTaken = errors.New("domain taken")
)

// Domain is a store's domain as the screen shows it, with the record that proves it.
type Domain struct {
	ID        int64  `db:"id" json:"id"`
	StoreID   int64  `db:"store_id" json:"store_id"`
	StoreName string `db:"store_name" json:"store_name"`
	Domain    string `db:"domain" json:"domain"`
	// Status is pending (never checked, or the last check got no answer), verified or failed.
	Status     string     `db:"status" json:"status"`
	CheckError string     `db:"check_error" json:"check_error"`
	CheckedAt  *time.Time `db:"checked_at" json:"checked_at"`
	VerifiedAt *time.Time `db:"verified_at" json:"verified_at"`
	CreatedAt  time.Time  `db:"created_at" json:"created_at"`
	// The TXT record to create: its name and its value (the domain's token).
	RecordName  string `db:"-" json:"record_name"`
	RecordValue string `db:"token" json:"record_value"`
}

const (
	qColumns = `d.id, d.store_id, s.name AS store_name, d.domain, d.status, d.check_error, d.checked_at, d.verified_at,
    d.created_at, d.token`
	qList = `SELECT ` + qColumns + ` FROM store_domains d JOIN stores s ON s.id = d.store_id
WHERE d.store_id = ANY($1) ORDER BY d.id`
	qGet = `SELECT ` + qColumns + ` FROM store_domains d JOIN stores s ON s.id = d.store_id
WHERE d.id = $1 AND d.store_id = ANY($2)`
	qAdd    = `INSERT INTO store_domains (store_id, domain) VALUES ($1, $2) RETURNING id`
	qRemove = `DELETE FROM store_domains WHERE id = $1 AND store_id = ANY($2)`
	// qStores are the ids of the stores the account owns.
	qStores = `SELECT id FROM stores WHERE owner_id = $1 ORDER BY id`
)

type store struct{ db *sqlx.DB }

func withRecord(d Domain) Domain {
	d.RecordName = customdomain.RecordName(d.Domain)
	return d
}

func (s store) storeIDs(ctx context.Context, owner int64) ([]int64, error) {
	ids := []int64{}
	if err := s.db.SelectContext(ctx, &ids, qStores, owner); err != nil {
		return nil, fmt.Errorf("list stores: %w", err)
	}
	return ids, nil
}

func (s store) list(ctx context.Context, stores []int64) ([]Domain, error) {
	out := []Domain{}
	if err := s.db.SelectContext(ctx, &out, qList, pq.Array(stores)); err != nil {
		return nil, fmt.Errorf("list domains: %w", err)
	}
	for i := range out {
		out[i] = withRecord(out[i])
	}
	return out, nil
}

func (s store) get(ctx context.Context, id int64, stores []int64) (Domain, error) {
	var d Domain
	err := s.db.GetContext(ctx, &d, qGet, id, pq.Array(stores))
	if errors.Is(err, sql.ErrNoRows) {
		return Domain{}, ErrNotFound
	} else if err != nil {
		return Domain{}, fmt.Errorf("get domain %d: %w", id, err)
	}
	return withRecord(d), nil
}

func (s store) add(ctx context.Context, storeID int64, domain string) (int64, error) {
	var id int64
	err := s.db.GetContext(ctx, &id, qAdd, storeID, domain)
	if database.UniqueViolation(err) {
		return 0, ErrTaken
	} else if err != nil {
		return 0, fmt.Errorf("add domain: %w", err)
	}
	return id, nil
}

func (s store) remove(ctx context.Context, id int64, stores []int64) error {
	res, err := s.db.ExecContext(ctx, qRemove, id, pq.Array(stores))
	if err != nil {
		return fmt.Errorf("remove domain %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}
