-- Idempotency keys: a client names each create with a key of its own (the Idempotency-Key header) and
-- sends the same key when it retries, so a double click or a retried request makes one thing. A row
-- holds the first request's fingerprint and, once it is answered, that answer, which every repeat gets.

-- +goose Up
CREATE TABLE idempotency_keys (
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE, -- the person who sent it
    key          text        NOT NULL,
    fingerprint  text        NOT NULL, -- sha256 of account, method, path and body
    status       integer,              -- NULL while the first request runs
    content_type text        NOT NULL DEFAULT '',
    body         bytea,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_expires_at_idx ON idempotency_keys (expires_at);

-- +goose Down
DROP TABLE idempotency_keys;
