-- API keys (docs/api.md): a seller's own software calls /api/v1 with a key sent as a bearer token.
-- Only the SHA-256 of the secret is kept; prefix is its first characters, shown so the seller can
-- tell keys apart. scopes are what the key may read; a key is refused once revoked_at is set or
-- expires_at has passed, checked on every request (no cache). Every use is an audit_events row
-- (action api_key.use) and moves last_used_at.

-- +goose Up
CREATE TABLE api_keys (
    id           bigserial PRIMARY KEY,
    seller_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_by   bigint      REFERENCES users (id) ON DELETE SET NULL,
    name         text        NOT NULL,
    prefix       text        NOT NULL,
    secret_hash  bytea       NOT NULL,
    scopes       text[]      NOT NULL,
    test_mode    boolean     NOT NULL DEFAULT false,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    last_used_at timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT api_keys_secret_hash_key UNIQUE (secret_hash),
    CONSTRAINT api_keys_name_check CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT api_keys_scopes_check CHECK (cardinality(scopes) >= 1
        AND scopes <@ ARRAY['user', 'product', 'product_design', 'store', 'page', 'orders']::text[])
);
CREATE INDEX api_keys_seller_idx ON api_keys (seller_id, id DESC);

-- +goose Down
DROP TABLE api_keys;
