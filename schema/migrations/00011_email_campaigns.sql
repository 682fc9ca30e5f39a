-- Email campaigns (docs/email-marketing.md): a store's e-mail campaigns, one delivery row per
-- recipient of a send, the abandoned-checkout e-mails and the discount code they offer.

-- +goose Up

-- A store's discount codes, as the abandoned-checkout coupon picker searches them. kind follows
-- the discount types: free (free shipping) or discount_with_percent (percent off).
CREATE TABLE discount_codes (
    id         bigserial PRIMARY KEY,
    store_id   bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    code       text        NOT NULL,
    kind       text        NOT NULL DEFAULT 'discount_with_percent',
    percent    integer     NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT discount_codes_kind_check CHECK (kind IN ('free', 'discount_with_percent')),
    CONSTRAINT discount_codes_percent_check CHECK (percent BETWEEN 0 AND 100)
);
CREATE UNIQUE INDEX discount_codes_code_key ON discount_codes (store_id, lower(code));

-- A campaign. body_html is sanitized on save and holds the {{unsubscribe_url}} placeholder.
-- from_address is the sender's address when the send was queued, so a sent campaign still says
-- who sent it after its sender is deleted. recipients, sent and failed are the send's progress.
CREATE TABLE email_campaigns (
    id           bigserial PRIMARY KEY,
    store_id     bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    sender_id    bigint REFERENCES email_senders (id) ON DELETE SET NULL,
    name         text        NOT NULL,
    subject      text        NOT NULL,
    preheader    text        NOT NULL DEFAULT '',
    body_html    text        NOT NULL DEFAULT '',
    status       text        NOT NULL DEFAULT 'draft',
    scheduled_at timestamptz,
    from_address text        NOT NULL DEFAULT '',
    recipients   integer     NOT NULL DEFAULT 0,
    sent         integer     NOT NULL DEFAULT 0,
    failed       integer     NOT NULL DEFAULT 0,
    error        text        NOT NULL DEFAULT '',
    created_by   bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    finished_at  timestamptz,
    CONSTRAINT email_campaigns_status_check CHECK (status IN ('draft', 'scheduled', 'sending', 'sent', 'failed'))
);
CREATE INDEX email_campaigns_store_id_idx ON email_campaigns (store_id, id DESC);

-- One recipient of a campaign's send. The unique (campaign_id, subscriber_id) pair means a
-- resumed send adds no second row; the worker claims pending rows (sending) before mailing them
-- and marks them sent or failed, so no row is mailed twice. token is the recipient's unsubscribe
-- link.
CREATE TABLE email_campaign_deliveries (
    id            bigserial PRIMARY KEY,
    campaign_id   bigint      NOT NULL REFERENCES email_campaigns (id) ON DELETE CASCADE,
    subscriber_id bigint      NOT NULL REFERENCES email_subscribers (id) ON DELETE CASCADE,
    email         text        NOT NULL,
    status        text        NOT NULL DEFAULT 'pending',
    error         text        NOT NULL DEFAULT '',
    token         uuid        NOT NULL DEFAULT gen_random_uuid(),
    sent_at       timestamptz,
    CONSTRAINT email_campaign_deliveries_status_check CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'skipped'))
);
CREATE UNIQUE INDEX email_campaign_deliveries_recipient_key ON email_campaign_deliveries (campaign_id, subscriber_id);
CREATE UNIQUE INDEX email_campaign_deliveries_token_key ON email_campaign_deliveries (token);
CREATE INDEX email_campaign_deliveries_pending_idx ON email_campaign_deliveries (campaign_id, id) WHERE status IN ('pending', 'sending');

-- The discount code the abandoned-checkout e-mails offer (none when coupon_code is empty).
CREATE TABLE email_abandoned_settings (
    store_id    bigint PRIMARY KEY REFERENCES stores (id) ON DELETE CASCADE,
    coupon_code text        NOT NULL DEFAULT '',
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Abandoned-checkout e-mails 1 to 3 of a store, each sent delay_minutes after the checkout was
-- left when enabled.
CREATE TABLE email_abandoned_steps (
    store_id      bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    step          smallint    NOT NULL,
    enabled       boolean     NOT NULL DEFAULT false,
    delay_minutes integer     NOT NULL DEFAULT 60,
    subject       text        NOT NULL DEFAULT '',
    body_html     text        NOT NULL DEFAULT '',
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (store_id, step),
    CONSTRAINT email_abandoned_steps_step_check CHECK (step BETWEEN 1 AND 3),
    CONSTRAINT email_abandoned_steps_delay_check CHECK (delay_minutes BETWEEN 1 AND 10080)
);

-- +goose Down
DROP TABLE email_abandoned_steps;
DROP TABLE email_abandoned_settings;
DROP TABLE email_campaign_deliveries;
DROP TABLE email_campaigns;
DROP TABLE discount_codes;
