-- One-time sign-in codes that carry a session to another dashboard host (the seller centre): the
-- signed-in host asks for a code, the other host exchanges it once, by POST, for a session of its
-- own. Only the code's SHA-256 is stored; a code lives a minute by default.

-- +goose Up
CREATE TABLE session_handoffs (
    id         bigserial PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash  bytea       NOT NULL,
    tfa_passed boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE UNIQUE INDEX session_handoffs_code_hash_key ON session_handoffs (code_hash);
CREATE INDEX session_handoffs_expires_at_idx ON session_handoffs (expires_at);

-- +goose Down
DROP TABLE session_handoffs;
