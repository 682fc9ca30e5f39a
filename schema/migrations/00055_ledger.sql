-- The sellers' money (docs/money.md): an append-only ledger of entries in minor units, running
-- totals per seller and currency kept in the same transaction as each entry, payouts and the fee
-- settings the earnings of an order are computed with. The users' balance column gives way to it.

-- +goose Up
-- Payouts a seller asked for. status: pending (asked), processing (approved by an admin), completed
-- (paid, with the admin's reference), on_hold, cancelled. One open payout (pending, processing or
-- on hold) per seller at a time.
CREATE TABLE payouts (
    id           bigserial PRIMARY KEY,
    seller_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    currency     text        NOT NULL,
    amount       bigint      NOT NULL,
    status       text        NOT NULL DEFAULT 'pending',
    reference    text        NOT NULL DEFAULT '',
    note         text        NOT NULL DEFAULT '',
    requested_by bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payouts_status_check CHECK (status IN ('pending', 'processing', 'completed', 'on_hold', 'cancelled')),
    CONSTRAINT payouts_amount_check CHECK (amount > 0),
    CONSTRAINT payouts_currency_check CHECK (currency IN ('EUR', 'USD')),
    CONSTRAINT payouts_completed_reference_check CHECK (status <> 'completed' OR reference <> '')
);
CREATE UNIQUE INDEX payouts_one_open_key ON payouts (seller_id) WHERE status IN ('pending', 'processing', 'on_hold');
CREATE INDEX payouts_seller_idx ON payouts (seller_id, id DESC);
CREATE INDEX payouts_status_idx ON payouts (status, id DESC);

-- One entry per movement of a seller's money, never updated or deleted. Each column d_* is the
-- signed change of one bucket: available (may be paid out), held (earned, waiting for the order to
-- ship), paying (in an open payout) and owed (refunds the seller's money did not cover yet, taken
-- from the next money that becomes available). The *_after columns are the buckets after the entry,
-- so a statement reads without summing. idempotency_key names the operation: posting it again
-- answers the entry already there.
CREATE TABLE ledger_entries (
    id              bigserial PRIMARY KEY,
    seller_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    currency        text        NOT NULL,
    type            text        NOT NULL,
    d_available     bigint      NOT NULL DEFAULT 0,
    d_held          bigint      NOT NULL DEFAULT 0,
    d_paying        bigint      NOT NULL DEFAULT 0,
    d_owed          bigint      NOT NULL DEFAULT 0,
    available_after bigint      NOT NULL,
    held_after      bigint      NOT NULL,
    paying_after    bigint      NOT NULL,
    owed_after      bigint      NOT NULL,
    order_id        bigint      REFERENCES orders (id) ON DELETE SET NULL,
    refund_id       bigint      REFERENCES refunds (id) ON DELETE SET NULL,
    payout_id       bigint      REFERENCES payouts (id) ON DELETE SET NULL,
    reference       text        NOT NULL DEFAULT '',
    actor_id        bigint      REFERENCES users (id) ON DELETE SET NULL,
    description     text        NOT NULL,
    idempotency_key text        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ledger_entries_key UNIQUE (idempotency_key),
    CONSTRAINT ledger_entries_currency_check CHECK (currency IN ('EUR', 'USD')),
    CONSTRAINT ledger_entries_type_check CHECK (type IN ('sale', 'commission', 'fulfill', 'fee', 'refund', 'payout',
        'topup', 'ads_topup', 'cashback', 'admin', 'other')),
    CONSTRAINT ledger_entries_after_check CHECK (available_after >= 0 AND held_after >= 0 AND paying_after >= 0 AND owed_after >= 0),
    CONSTRAINT ledger_entries_moves_check CHECK (type = 'payout' OR d_available <> 0 OR d_held <> 0 OR d_paying <> 0 OR d_owed <> 0),
    CONSTRAINT ledger_entries_description_check CHECK (description <> ''),
    -- Every entry names its cause.
    CONSTRAINT ledger_entries_cause_check CHECK (CASE type
        WHEN 'sale' THEN order_id IS NOT NULL
        WHEN 'refund' THEN order_id IS NOT NULL OR d_owed < 0
        WHEN 'payout' THEN payout_id IS NOT NULL
        WHEN 'topup' THEN reference <> ''
        WHEN 'ads_topup' THEN reference <> ''
        WHEN 'admin' THEN actor_id IS NOT NULL
        ELSE true END)
);
CREATE INDEX ledger_entries_seller_idx ON ledger_entries (seller_id, created_at DESC, id DESC);
CREATE INDEX ledger_entries_seller_type_idx ON ledger_entries (seller_id, type, created_at DESC, id DESC);
CREATE INDEX ledger_entries_order_idx ON ledger_entries (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX ledger_entries_payout_idx ON ledger_entries (payout_id) WHERE payout_id IS NOT NULL;

-- The running totals: per seller and currency, the sum of the entries' d_* columns, updated with
-- each entry under this row's lock. No bucket goes below zero.
CREATE TABLE ledger_balances (
    seller_id  bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    currency   text        NOT NULL,
    available  bigint      NOT NULL DEFAULT 0,
    held       bigint      NOT NULL DEFAULT 0,
    paying     bigint      NOT NULL DEFAULT 0,
    owed       bigint      NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (seller_id, currency),
    CONSTRAINT ledger_balances_currency_check CHECK (currency IN ('EUR', 'USD')),
    CONSTRAINT ledger_balances_check CHECK (available >= 0 AND held >= 0 AND paying >= 0 AND owed >= 0)
);

-- GET /api/me answers the balance from the running totals: a change is a new version of the user.
CREATE TRIGGER ledger_balances_auth_version AFTER INSERT OR UPDATE OR DELETE ON ledger_balances
    FOR EACH ROW EXECUTE FUNCTION auth_version_changed('seller_id');

-- The fee settings: processing_fee is a percent of what the buyer paid, processing_fee_min the
-- least fee per order (a decimal amount of the order's currency), payout_min the least payout.
INSERT INTO system_configs (key, value) VALUES
    ('processing_fee', '4'),
    ('processing_fee_min', '0.50'),
    ('payout_min', '50.00')
ON CONFLICT (key) DO NOTHING;

-- The balance is the ledger's now: the users column it replaces goes.
ALTER TABLE users DROP COLUMN balance;

-- +goose Down
ALTER TABLE users ADD COLUMN balance numeric(14, 2) NOT NULL DEFAULT 0;
DELETE FROM system_configs WHERE key IN ('processing_fee', 'processing_fee_min', 'payout_min');
DROP TRIGGER ledger_balances_auth_version ON ledger_balances;
DROP TABLE ledger_balances;
DROP TABLE ledger_entries;
DROP TABLE payouts;
