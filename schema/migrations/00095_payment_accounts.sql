-- Payment accounts (docs/payments.md): where a seller's payouts are sent, one of the payout methods
-- bank, payoneer, pingpong, lianlian and payoneer_vn. details holds the fields that are not secret
-- (the holder's name, the bank, the country); secrets_sealed the sensitive ones (account number,
-- account e-mail) as one sealed JSON object (platform/seal, PRESSROOM_PAYMENT_SECRET_KEY, bound to
-- the account's id), secrets_hint their masked values, label what the screens and payouts call the
-- account. A new account is confirmed through a link e-mailed to the seller (the hash of its token
-- is kept, so the link answers "already confirmed" once used); it is then valid. An admin may mark
-- it invalid (status_note says why); changing it makes it new again. One default account per
-- seller, always a valid one. A payout names the account it was requested to, and keeps its label.

-- +goose Up
CREATE TABLE payment_accounts (
    id                 bigserial PRIMARY KEY,
    seller_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method             text        NOT NULL,
    label              text        NOT NULL,
    details            jsonb       NOT NULL DEFAULT '{}',
    secrets_sealed     bytea       NOT NULL,
    secrets_hint       jsonb       NOT NULL DEFAULT '{}',
    status             text        NOT NULL DEFAULT 'new',
    status_note        text        NOT NULL DEFAULT '',
    is_default         boolean     NOT NULL DEFAULT false,
    confirm_token_hash bytea,
    confirm_sent_at    timestamptz,
    confirm_expires_at timestamptz,
    confirmed_at       timestamptz,
    created_by         bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payment_accounts_method_check CHECK (method IN ('bank', 'payoneer', 'pingpong', 'lianlian', 'payoneer_vn')),
    CONSTRAINT payment_accounts_status_check CHECK (status IN ('new', 'valid', 'invalid')),
    CONSTRAINT payment_accounts_default_check CHECK (NOT is_default OR status = 'valid'),
    CONSTRAINT payment_accounts_label_check CHECK (label <> '')
);
CREATE INDEX payment_accounts_seller_idx ON payment_accounts (seller_id, id DESC);
CREATE UNIQUE INDEX payment_accounts_default_key ON payment_accounts (seller_id) WHERE is_default;
CREATE UNIQUE INDEX payment_accounts_confirm_key ON payment_accounts (confirm_token_hash) WHERE confirm_token_hash IS NOT NULL;

ALTER TABLE payouts
    ADD COLUMN payment_account_id    bigint REFERENCES payment_accounts (id) ON DELETE SET NULL,
    ADD COLUMN payment_account_label text   NOT NULL DEFAULT '';
CREATE INDEX payouts_payment_account_idx ON payouts (payment_account_id) WHERE payment_account_id IS NOT NULL;

-- +goose Down
DROP INDEX payouts_payment_account_idx;
ALTER TABLE payouts DROP COLUMN payment_account_label, DROP COLUMN payment_account_id;
DROP TABLE payment_accounts;
