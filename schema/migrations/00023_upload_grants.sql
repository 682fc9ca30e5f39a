-- A signed upload handed out and not yet completed: the bff records the key when it signs, and the
-- completing call removes the row in the transaction that records the upload. A row whose signature
-- expired a grace period ago names a file nobody will complete: the bff's sweep deletes the object
-- (unless an upload row took the key) and the row, so abandoned uploads do not fill the store.

-- +goose Up
CREATE TABLE upload_grants (
    blob_key   text        PRIMARY KEY,
    max_bytes  bigint      NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT upload_grants_max_bytes_check CHECK (max_bytes > 0)
);
CREATE INDEX upload_grants_expires_idx ON upload_grants (expires_at);

-- +goose Down
DROP TABLE upload_grants;
