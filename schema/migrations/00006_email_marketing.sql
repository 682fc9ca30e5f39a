-- Email marketing (docs/email-marketing.md): a store's Klaviyo connection, its sending domains and senders, its
-- subscribers, and the runs that copy the subscribers to Klaviyo as profiles on the list.

-- +goose Up

-- A domain a store sends e-mail from; senders are mailboxes on it. verified_at is set once the
-- domain's DNS records have been checked.
CREATE TABLE store_domains (
    id          bigserial PRIMARY KEY,
    store_id    bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    domain      text        NOT NULL,
    verified_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX store_domains_domain_key ON store_domains (lower(domain));
CREATE INDEX store_domains_store_id_idx ON store_domains (store_id);

-- One Klaviyo connection per store. The private key is sealed with AES-256-GCM under the
-- deployment's PRESSROOM_EMAIL_SECRET_KEY (nonce || ciphertext); key_last4 is what the UI shows.
CREATE TABLE email_klaviyo_settings (
    store_id           bigint PRIMARY KEY REFERENCES stores (id) ON DELETE CASCADE,
    private_key_sealed bytea       NOT NULL,
    key_last4          text        NOT NULL,
    list_id            text        NOT NULL,
    updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE email_senders (
    id              bigserial PRIMARY KEY,
    store_domain_id bigint      NOT NULL REFERENCES store_domains (id) ON DELETE CASCADE,
    username        text        NOT NULL,
    name            text        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX email_senders_address_key ON email_senders (store_domain_id, lower(username));

CREATE TABLE email_subscribers (
    id         bigserial PRIMARY KEY,
    store_id   bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    email      text        NOT NULL,
    first_name text        NOT NULL DEFAULT '',
    last_name  text        NOT NULL DEFAULT '',
    status     text        NOT NULL DEFAULT 'subscribed',
    source     text        NOT NULL DEFAULT 'manual',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT email_subscribers_status_check CHECK (status IN ('subscribed', 'unsubscribed'))
);
CREATE UNIQUE INDEX email_subscribers_email_key ON email_subscribers (store_id, lower(email));

-- A run of email:sync-profiles. cursor is the id of the last subscriber sent to Klaviyo: the
-- worker pages by id after it and records it with done after each page, so a restarted task
-- resumes where the last page ended. At most one run per store is open (queued or running).
CREATE TABLE email_sync_runs (
    id           bigserial PRIMARY KEY,
    store_id     bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
    status       text        NOT NULL DEFAULT 'queued',
    total        integer     NOT NULL DEFAULT 0,
    done         integer     NOT NULL DEFAULT 0,
    cursor       bigint      NOT NULL DEFAULT 0,
    error        text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    CONSTRAINT email_sync_runs_status_check CHECK (status IN ('queued', 'running', 'done', 'failed'))
);
CREATE UNIQUE INDEX email_sync_runs_open_key ON email_sync_runs (store_id) WHERE status IN ('queued', 'running');
CREATE INDEX email_sync_runs_store_id_idx ON email_sync_runs (store_id, id DESC);

-- +goose Down
DROP TABLE email_sync_runs;
DROP TABLE email_subscribers;
DROP TABLE email_senders;
DROP TABLE email_klaviyo_settings;
DROP TABLE store_domains;
