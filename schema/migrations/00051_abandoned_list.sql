-- The seller's abandoned checkouts (docs/customers.md): listed per store, newest abandoned first,
-- and when the buyer first opened a recovery e-mail's link.

-- +goose Up
ALTER TABLE checkouts ADD COLUMN recovery_opened_at timestamptz;
CREATE INDEX checkouts_store_abandoned_idx ON checkouts (store_id, abandoned_at DESC) WHERE abandoned_at IS NOT NULL;

-- +goose Down
DROP INDEX checkouts_store_abandoned_idx;
ALTER TABLE checkouts DROP COLUMN recovery_opened_at;
