-- Abandoned checkouts (docs/commerce.md): when a checkout was found abandoned and when it was paid
-- after that, and one row per recovery e-mail step sent for a checkout, so no step goes twice.

-- +goose Up
ALTER TABLE checkouts ADD COLUMN abandoned_at timestamptz, ADD COLUMN recovered_at timestamptz;
CREATE INDEX checkouts_abandoned_idx ON checkouts (updated_at) WHERE status = 'abandoned';

-- A recovery e-mail of a checkout: claimed (sending) before it is mailed, then sent or failed. The
-- primary key is the idempotency of a step; a row left sending by a worker that died is not mailed
-- again, since the message may already have left.
CREATE TABLE checkout_recovery_mails (
    checkout_id uuid        NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
    step        smallint    NOT NULL,
    status      text        NOT NULL DEFAULT 'sending',
    error       text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    sent_at     timestamptz,
    PRIMARY KEY (checkout_id, step),
    CONSTRAINT checkout_recovery_mails_step_check CHECK (step BETWEEN 1 AND 3),
    CONSTRAINT checkout_recovery_mails_status_check CHECK (status IN ('sending', 'sent', 'failed'))
);

-- +goose Down
DROP TABLE checkout_recovery_mails;
DROP INDEX checkouts_abandoned_idx;
ALTER TABLE checkouts DROP COLUMN recovered_at, DROP COLUMN abandoned_at;
