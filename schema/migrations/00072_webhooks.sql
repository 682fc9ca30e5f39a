-- A seller's webhook endpoints and notification channels, and their deliveries (docs/webhooks.md):
-- one delivery per event and endpoint (created once, by the fan-out from event_outbox), each try of
-- it logged in webhook_attempts. An endpoint failing without a success for long enough is disabled.

-- +goose Up
CREATE TABLE webhook_endpoints (
    id             bigserial PRIMARY KEY,
    seller_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind           text        NOT NULL CHECK (kind IN ('custom', 'slack', 'discord', 'ms_teams', 'telegram')),
    name           text        NOT NULL DEFAULT '',
    -- custom, slack, discord, ms_teams: the address posted to; telegram: the bot token.
    url            text        NOT NULL,
    chat_id        text        NOT NULL DEFAULT '',
    -- custom: the key of the signature header.
    secret         text        NOT NULL DEFAULT '',
    events         text[]      NOT NULL CHECK (cardinality(events) > 0),
    enabled        boolean     NOT NULL DEFAULT true,
    disabled_reason text       NOT NULL DEFAULT '',
    -- The first failed try since the last success; NULL while healthy.
    failing_since  timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_seller_idx ON webhook_endpoints (seller_id, id);

CREATE TABLE webhook_deliveries (
    id              bigserial PRIMARY KEY,
    endpoint_id     bigint      NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    -- NULL for a test send.
    event_id        bigint      REFERENCES event_outbox (id) ON DELETE SET NULL,
    order_id        bigint,
    event_type      text        NOT NULL,
    payload         jsonb       NOT NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    -- A failed try after this gives up (the retry window; a manual replay is one more try).
    retry_until     timestamptz NOT NULL,
    -- A worker sending it holds it until then; a worker that died lets it go when it passes.
    leased_until    timestamptz,
    last_status     int,
    last_error      text        NOT NULL DEFAULT '',
    created_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);
CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (event_id, endpoint_id);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (endpoint_id, order_id, event_id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (endpoint_id, id);

CREATE TABLE webhook_attempts (
    id           bigserial PRIMARY KEY,
    delivery_id  bigint      NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL,
    status_code  int,
    latency_ms   int         NOT NULL,
    -- The first kilobyte of the answer's body.
    response     text        NOT NULL DEFAULT '',
    error        text        NOT NULL DEFAULT ''
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
