-- Sellers' own payment gateways (docs/payments.md): a seller with custom payment connects their
-- Stripe account, and the stores that use it take their buyers' payments into that account. The
-- secret key and the webhook signing secret are sealed (platform/seal, PRESSROOM_PAYMENT_SECRET_KEY,
-- bound to the gateway's id) and shown only masked (the *_hint columns). account_id is the Stripe
-- account the keys were checked against when saved; a gateway keeps its account, so payments begun
-- through it can always be read and refunded. A gateway the seller deletes while it has payments is
-- retired (retired_at): no store uses it any more, it is no longer listed, and its keys stay sealed
-- for the webhooks and refunds of those payments; one without payments is removed.

-- +goose Up
CREATE TABLE payment_gateways (
    id                    bigserial PRIMARY KEY,
    seller_id             bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider              text        NOT NULL DEFAULT 'stripe',
    name                  text        NOT NULL,
    account_id            text        NOT NULL,
    test_mode             boolean     NOT NULL,
    publishable_key       text        NOT NULL,
    secret_key_sealed     bytea       NOT NULL,
    secret_key_hint       text        NOT NULL,
    webhook_secret_sealed bytea       NOT NULL,
    webhook_secret_hint   text        NOT NULL,
    created_by            bigint      REFERENCES users (id) ON DELETE SET NULL,
    created_at            timestamptz NOT NULL DEFAULT now(),
    updated_at            timestamptz NOT NULL DEFAULT now(),
    retired_at            timestamptz,
    CONSTRAINT payment_gateways_provider_check CHECK (provider IN ('stripe')),
    CONSTRAINT payment_gateways_name_check CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT payment_gateways_account_check CHECK (account_id <> '')
);
CREATE INDEX payment_gateways_seller_idx ON payment_gateways (seller_id, id DESC) WHERE retired_at IS NULL;

-- The gateway a store's checkouts pay through; none: the platform's.
ALTER TABLE stores ADD COLUMN payment_gateway_id bigint REFERENCES payment_gateways (id) ON DELETE SET NULL;
CREATE INDEX stores_payment_gateway_idx ON stores (payment_gateway_id) WHERE payment_gateway_id IS NOT NULL;

-- The seller's gateway a payment was taken through, paid into the seller's own account; none: the
-- platform's. The ledger books such an order's costs as owed by the seller (docs/money.md).
ALTER TABLE payments ADD COLUMN payment_gateway_id bigint REFERENCES payment_gateways (id) ON DELETE SET NULL;
CREATE INDEX payments_payment_gateway_idx ON payments (payment_gateway_id) WHERE payment_gateway_id IS NOT NULL;

-- +goose Down
DROP INDEX payments_payment_gateway_idx;
ALTER TABLE payments DROP COLUMN payment_gateway_id;
DROP INDEX stores_payment_gateway_idx;
ALTER TABLE stores DROP COLUMN payment_gateway_id;
DROP TABLE payment_gateways;
