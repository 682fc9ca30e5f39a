-- Notifications (docs/shell.md): messages the platform posts to one seller or to every seller, and what each account did
-- with them. The message is HTML, sanitized before it is stored (and again when served).

-- +goose Up
CREATE TABLE notifications (
    id                  bigserial PRIMARY KEY,
    -- NULL: meant for every seller.
    seller_id           bigint REFERENCES users (id) ON DELETE CASCADE,
    subject             text        NOT NULL,
    message             text        NOT NULL DEFAULT '',
    image               text        NOT NULL DEFAULT '',
    call_to_action_link text        NOT NULL DEFAULT '',
    -- 1: shown in the popup until read or ticked "Don't show this notification"; 2: shown in the
    -- popup once (closing the popup reports it seen, read-status action 2).
    type                smallint    NOT NULL DEFAULT 1,
    is_warning          boolean     NOT NULL DEFAULT false,
    -- The admin who posted it; NULL for notifications the platform raises itself.
    created_by          bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT notifications_type_check CHECK (type IN (1, 2)),
    CONSTRAINT notifications_subject_check CHECK (subject <> '')
);
-- The lists read "seller_id = $1 OR (seller_id IS NULL AND $1 is a seller's account)" newest first;
-- each arm has its index.
CREATE INDEX notifications_seller_idx ON notifications (seller_id, id DESC);
CREATE INDEX notifications_all_sellers_idx ON notifications (id DESC) WHERE seller_id IS NULL;

-- What one account did with a notification; no row means new and untouched. user_id is the account
-- the notification was shown in (the seller's, also while a team member works in it).
CREATE TABLE notification_states (
    user_id         bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    notification_id bigint      NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    -- Opened, or marked read with "mark all as read".
    read_at         timestamptz,
    -- Ticked "Don't show this notification" in the popup (read-status action 1).
    dismissed_at    timestamptz,
    -- Shown in the popup, for notifications of type 2 (read-status action 2).
    seen_at         timestamptz,
    PRIMARY KEY (user_id, notification_id)
);
CREATE INDEX notification_states_notification_idx ON notification_states (notification_id);

-- +goose Down
DROP TABLE notification_states;
DROP TABLE notifications;
