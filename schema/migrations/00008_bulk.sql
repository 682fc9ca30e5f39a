-- Bulk campaigns on the server (docs/bulk.md): bulk uploads (a named import of many
-- artworks for one template campaign), the multi-print-space records the worker's bulk:record task
-- turns into campaigns, the background campaign jobs of bulk:campaign and their log.

-- +goose Up
-- A named import of many artworks for one template campaign; its records are counted per status
-- for the progress summary. user_id is the account owner (also when a team member imports).
CREATE TABLE bulk_uploads (
    id                   bigserial PRIMARY KEY,
    user_id              bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    template_campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
    name                 text        NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bulk_uploads_name_check CHECK (length(name) BETWEEN 1 AND 255)
);
CREATE INDEX bulk_uploads_user_idx ON bulk_uploads (user_id, id DESC);

-- One artwork set to become one campaign copied from the template campaign. designs is a
-- JSON text array of {new_url, print_space}, kept as sent: the worker's record checks judge it.
-- attempts counts the times the record was queued (create, start, retry); the task of an attempt
-- acts only while the record is queued for that attempt, so a stopped or restarted record is never
-- worked by a stale task. campaign_id is the campaign the worker created; results the design
-- records {print_space, product_id, file_url, design_json, option}, written once when every print
-- file is stored.
CREATE TABLE bulk_records (
    id                   bigserial PRIMARY KEY,
    user_id              bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    bulk_upload_id       bigint REFERENCES bulk_uploads (id) ON DELETE CASCADE,
    template_campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
    campaign_id          bigint REFERENCES campaigns (id) ON DELETE SET NULL,
    designs              text        NOT NULL,
    type                 text        NOT NULL DEFAULT 'regular_multi_space',
    status               text        NOT NULL DEFAULT 'queued',
    message              text        NOT NULL DEFAULT '',
    results              jsonb,
    attempts             integer     NOT NULL DEFAULT 0,
    step                 text        NOT NULL DEFAULT '',
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    processed_at         timestamptz,
    completed_at         timestamptz,
    CONSTRAINT bulk_records_type_check CHECK (type IN ('regular_multi_space', 'express_multi_space')),
    CONSTRAINT bulk_records_status_check CHECK (status IN ('pending', 'queued', 'processing', 'completed', 'failed', 'stopped')),
    CONSTRAINT bulk_records_attempts_check CHECK (attempts >= 0),
    CONSTRAINT bulk_records_results_check CHECK (results IS NULL OR jsonb_typeof(results) = 'array'),
    -- A campaign is created for one record only.
    CONSTRAINT bulk_records_campaign_key UNIQUE (campaign_id)
);
-- The list filters by owner, then optionally status and type, newest first.
CREATE INDEX bulk_records_user_idx ON bulk_records (user_id, id DESC);
CREATE INDEX bulk_records_user_status_idx ON bulk_records (user_id, status, id DESC);
CREATE INDEX bulk_records_upload_idx ON bulk_records (bulk_upload_id, status) WHERE bulk_upload_id IS NOT NULL;
-- The reconcile loop reads the records waiting for their print files.
CREATE INDEX bulk_records_processing_idx ON bulk_records (id) WHERE status = 'processing';

-- The background campaign creator's pending job: a campaign made from the origin
-- campaign (campaign_id) or a template campaign, named campaign_name with prefix and suffix, in a
-- collection, with the artwork of designs ({new_url} items, JSON text). new_campaign_id is what it made.
CREATE TABLE bulk_campaign_jobs (
    id                   bigserial PRIMARY KEY,
    user_id              bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    campaign_id          bigint REFERENCES campaigns (id) ON DELETE SET NULL,
    template_campaign_id bigint REFERENCES campaigns (id) ON DELETE SET NULL,
    campaign_name        text        NOT NULL DEFAULT '',
    prefix               text        NOT NULL DEFAULT '',
    suffix               text        NOT NULL DEFAULT '',
    collection           text        NOT NULL DEFAULT '',
    designs              text        NOT NULL DEFAULT '[]',
    status               text        NOT NULL DEFAULT 'pending',
    message              text        NOT NULL DEFAULT '',
    new_campaign_id      bigint REFERENCES campaigns (id) ON DELETE SET NULL,
    attempts             integer     NOT NULL DEFAULT 0,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bulk_campaign_jobs_status_check CHECK (status IN ('pending', 'queued', 'processing', 'completed', 'failed', 'stopped')),
    CONSTRAINT bulk_campaign_jobs_origin_check CHECK (campaign_id IS NOT NULL OR template_campaign_id IS NOT NULL
        OR status <> 'pending'),
    CONSTRAINT bulk_campaign_jobs_new_campaign_key UNIQUE (new_campaign_id)
);
CREATE INDEX bulk_campaign_jobs_user_idx ON bulk_campaign_jobs (user_id, id DESC);
-- The scheduler looks for pending jobs, oldest first.
CREATE INDEX bulk_campaign_jobs_pending_idx ON bulk_campaign_jobs (id) WHERE status = 'pending';

-- The bulk log (bulk_id, log): what the campaign job reported, such as
-- 'Original campaign has no design', 'Missing print spaces', 'Cannot load designs'.
CREATE TABLE bulk_logs (
    id         bigserial PRIMARY KEY,
    bulk_id    bigint      NOT NULL REFERENCES bulk_campaign_jobs (id) ON DELETE CASCADE,
    log        text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bulk_logs_bulk_idx ON bulk_logs (bulk_id, id);

-- +goose Down
DROP TABLE bulk_logs;
DROP TABLE bulk_campaign_jobs;
DROP TABLE bulk_records;
DROP TABLE bulk_uploads;
