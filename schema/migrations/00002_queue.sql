-- The task outbox (a row committed with the change that needs background work, relayed to Asynq)
-- and the system:ping round-trip record.

-- +goose Up
CREATE TABLE task_outbox (
    id         bigserial PRIMARY KEY,
    task_type  text        NOT NULL,
    payload    bytea       NOT NULL,
    queue      text        NOT NULL,
    task_id    text        NOT NULL,
    max_retry  integer     NOT NULL DEFAULT 25,
    timeout_ms bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at    timestamptz,
    attempts   integer     NOT NULL DEFAULT 0,
    last_error text        NOT NULL DEFAULT ''
);
CREATE INDEX task_outbox_pending_idx ON task_outbox (id) WHERE sent_at IS NULL;

CREATE TABLE system_pings (
    id           bigserial PRIMARY KEY,
    service      text        NOT NULL,
    requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    completed_by text        NOT NULL DEFAULT '',
    CONSTRAINT system_pings_service_check CHECK (service IN ('worker', 'renderer'))
);

-- +goose Down
DROP TABLE system_pings;
DROP TABLE task_outbox;
