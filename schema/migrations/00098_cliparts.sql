-- A seller's folders of artworks and of cliparts, the cliparts library, and what an upload may be made
-- from (docs/cliparts.md, docs/uploads.md).
--
-- asset_folders: one flat list of folders per seller and kind; deleting a folder leaves its files
-- outside any folder (ON DELETE SET NULL).
-- uploads.folder_id: the artwork folder an upload is filed in. uploads.source_key: the file the
-- renderer makes the upload from (an SVG clipart's clean source, drawn into blob_key as a PNG by
-- render:sanitize); '' for a file uploaded as it is.
-- cliparts: the seller's clipart library; upload_id is the print-size file designs name (the upload's
-- blob_key). A deleted clipart leaves the library at once (deleted_at); its files are removed, with its
-- upload row, once no design uses them.

-- +goose Up
CREATE TABLE asset_folders (
    id         bigserial PRIMARY KEY,
    seller_id  bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       text        NOT NULL,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT asset_folders_kind_check CHECK (kind IN ('artwork', 'clipart')),
    CONSTRAINT asset_folders_name_check CHECK (length(name) BETWEEN 1 AND 100)
);
CREATE UNIQUE INDEX asset_folders_name_key ON asset_folders (seller_id, kind, lower(name));

ALTER TABLE uploads ADD COLUMN folder_id bigint REFERENCES asset_folders (id) ON DELETE SET NULL;
ALTER TABLE uploads ADD COLUMN source_key text NOT NULL DEFAULT '';
CREATE INDEX uploads_folder_idx ON uploads (folder_id) WHERE folder_id IS NOT NULL;

CREATE TABLE cliparts (
    id         bigserial PRIMARY KEY,
    seller_id  bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    folder_id  bigint      REFERENCES asset_folders (id) ON DELETE SET NULL,
    upload_id  bigint      NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    name       text        NOT NULL,
    -- The format as uploaded: png, webp or svg.
    format     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    CONSTRAINT cliparts_name_check CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT cliparts_format_check CHECK (format IN ('png', 'webp', 'svg'))
);
CREATE UNIQUE INDEX cliparts_upload_key ON cliparts (upload_id);
CREATE INDEX cliparts_seller_idx ON cliparts (seller_id, id DESC) WHERE deleted_at IS NULL;
CREATE INDEX cliparts_folder_idx ON cliparts (folder_id) WHERE folder_id IS NOT NULL;
CREATE INDEX cliparts_deleted_idx ON cliparts (deleted_at) WHERE deleted_at IS NOT NULL;

-- +goose Down
DROP TABLE cliparts;
DROP INDEX uploads_folder_idx;
ALTER TABLE uploads DROP COLUMN source_key;
ALTER TABLE uploads DROP COLUMN folder_id;
DROP TABLE asset_folders;
