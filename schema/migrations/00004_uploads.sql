-- Uploads: one row per file a user
-- put into blob storage. The bff records it pending with its render:sanitize task (through the
-- outbox, in one transaction); the renderer's sanitize step sets it ready, with what it measured,
-- or rejected, with the message the user reads. Nothing uses an upload before it is ready.

-- +goose Up
CREATE TABLE uploads (
    id           bigserial PRIMARY KEY,
    owner_id     bigint REFERENCES users (id) ON DELETE CASCADE,
    blob_key     text        NOT NULL,
    file_name    text        NOT NULL DEFAULT '',
    kind         text        NOT NULL DEFAULT '',
    status       text        NOT NULL DEFAULT 'pending',
    message      text        NOT NULL DEFAULT '',
    content_type text        NOT NULL DEFAULT '',
    width        integer,
    height       integer,
    dpi_x        double precision,
    dpi_y        double precision,
    byte_size    bigint,
    stripped     boolean     NOT NULL DEFAULT false,
    -- The stored object's size and modification time when it was checked ("size-unixnano" as the
    -- blob store reports them): a signed PUT stays valid until it expires, so the bff serves the
    -- file only while the object is still the one that was checked.
    blob_version text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT uploads_blob_key_key UNIQUE (blob_key),
    CONSTRAINT uploads_status_check CHECK (status IN ('pending', 'ready', 'rejected'))
);
CREATE INDEX uploads_owner_idx ON uploads (owner_id, id DESC);

-- +goose Down
DROP TABLE uploads;
