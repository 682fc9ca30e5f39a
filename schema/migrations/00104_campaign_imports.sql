-- Campaign import (docs/campaigns.md#import): a CSV or JSON file of campaigns is a bulk upload of
-- kind 'campaigns'; each good row becomes a bulk record of type campaign_import, which the worker's
-- bulk:record task turns into a campaign like any bulk record; each bad row is kept with its line and
-- reason for the import's report.

-- +goose Up
ALTER TABLE bulk_uploads
    ADD COLUMN kind      text    NOT NULL DEFAULT 'artworks',
    ADD COLUMN file_name text    NOT NULL DEFAULT '',
    ADD COLUMN rows      integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT bulk_uploads_kind_check CHECK (kind IN ('artworks', 'campaigns'));

-- An imported row: the line of the file it came from, its import key (given, or made from the row:
-- the same row imported again has the same key, and a key is imported once per account), the
-- campaign's name, its products (template_campaign_id, or product templates in template_ids) and
-- where it is sold: store_id with price, the seller's intent {mode, margin, price} in minor units.
ALTER TABLE bulk_records
    ADD COLUMN import_line  integer,
    ADD COLUMN import_key   text,
    ADD COLUMN name         text     NOT NULL DEFAULT '',
    ADD COLUMN template_ids bigint[] NOT NULL DEFAULT '{}',
    ADD COLUMN store_id     bigint REFERENCES stores (id) ON DELETE SET NULL,
    ADD COLUMN price        jsonb,
    DROP CONSTRAINT bulk_records_type_check,
    ADD CONSTRAINT bulk_records_type_check CHECK (type IN ('regular_multi_space', 'express_multi_space', 'campaign_import')),
    ADD CONSTRAINT bulk_records_import_check CHECK (type <> 'campaign_import' OR (import_line IS NOT NULL AND import_key IS NOT NULL));
CREATE UNIQUE INDEX bulk_records_import_key ON bulk_records (user_id, import_key) WHERE import_key IS NOT NULL;

-- A row of an imported file that made no record: its line, its import key when it had one, and why:
-- refused (the row is wrong) or duplicate (its key was imported before).
CREATE TABLE bulk_upload_refusals (
    id             bigserial PRIMARY KEY,
    bulk_upload_id bigint  NOT NULL REFERENCES bulk_uploads (id) ON DELETE CASCADE,
    line           integer NOT NULL,
    import_key     text    NOT NULL DEFAULT '',
    status         text    NOT NULL DEFAULT 'refused',
    reason         text    NOT NULL,
    CONSTRAINT bulk_upload_refusals_status_check CHECK (status IN ('refused', 'duplicate'))
);
CREATE INDEX bulk_upload_refusals_upload_idx ON bulk_upload_refusals (bulk_upload_id, line);

-- +goose Down
DROP TABLE bulk_upload_refusals;
DROP INDEX bulk_records_import_key;
DELETE FROM bulk_records WHERE type = 'campaign_import';
ALTER TABLE bulk_records
    DROP CONSTRAINT bulk_records_import_check,
    DROP CONSTRAINT bulk_records_type_check,
    ADD CONSTRAINT bulk_records_type_check CHECK (type IN ('regular_multi_space', 'express_multi_space')),
    DROP COLUMN price, DROP COLUMN store_id, DROP COLUMN template_ids, DROP COLUMN name, DROP COLUMN import_key,
    DROP COLUMN import_line;
DELETE FROM bulk_uploads WHERE kind = 'campaigns';
ALTER TABLE bulk_uploads DROP CONSTRAINT bulk_uploads_kind_check, DROP COLUMN rows, DROP COLUMN kind, DROP COLUMN file_name;
