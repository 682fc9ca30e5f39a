-- Money back and parcels out (docs/orders.md): a refund is reserved (pending) before the gateway is
-- asked and settled after, keyed per order and client request so a retry refunds once; a shipment is
-- one item's parcel, at most one per item (a later update changes its tracking, never unships it);
-- the order events a seller can subscribe to wait in event_outbox for webhook delivery.

-- +goose Up
ALTER TABLE refunds
    ADD COLUMN status            text        NOT NULL DEFAULT 'succeeded',
    ADD COLUMN reason            text        NOT NULL DEFAULT '',
    ADD COLUMN idempotency_key   text,
    ADD COLUMN gateway_refund_id text        NOT NULL DEFAULT '',
    ADD COLUMN message           text        NOT NULL DEFAULT '',
    ADD COLUMN actor             text        NOT NULL DEFAULT '',
    ADD COLUMN updated_at        timestamptz NOT NULL DEFAULT now(),
    ADD CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'succeeded', 'failed'));
CREATE UNIQUE INDEX refunds_idempotency_key ON refunds (idempotency_key);

ALTER TABLE shipments
    ADD COLUMN tracking_url text NOT NULL DEFAULT '',
    ADD COLUMN actor        text NOT NULL DEFAULT '',
    ADD COLUMN updated_at   timestamptz NOT NULL DEFAULT now();
DROP INDEX shipments_item_idx;
CREATE UNIQUE INDEX shipments_item_key ON shipments (order_item_id);
CREATE INDEX shipments_tracking_idx ON shipments (tracking);

-- The buyer's shipping e-mails queued: one per order and tracking number.
CREATE TABLE shipping_mails (
    order_id   bigint      NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    tracking   text        NOT NULL,
    queued_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (order_id, tracking)
);

-- An event a seller's webhooks will receive (order.created, order.status_changed,
-- order.tracking_changed), written in the transaction of the change; delivered_at once sent.
CREATE TABLE event_outbox (
    id           bigserial PRIMARY KEY,
    seller_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    order_id     bigint      REFERENCES orders (id) ON DELETE CASCADE,
    event_type   text        NOT NULL,
    payload      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz,
    CONSTRAINT event_outbox_type_check CHECK (event_type IN ('order.created', 'order.status_changed', 'order.tracking_changed'))
);
CREATE INDEX event_outbox_pending_idx ON event_outbox (id) WHERE delivered_at IS NULL;
CREATE INDEX event_outbox_order_idx ON event_outbox (order_id, id);

-- +goose Down
DROP TABLE event_outbox;
DROP TABLE shipping_mails;
DROP INDEX shipments_tracking_idx;
DROP INDEX shipments_item_key;
CREATE INDEX shipments_item_idx ON shipments (order_item_id);
ALTER TABLE shipments DROP COLUMN updated_at, DROP COLUMN actor, DROP COLUMN tracking_url;
DROP INDEX refunds_idempotency_key;
ALTER TABLE refunds DROP CONSTRAINT refunds_status_check, DROP COLUMN updated_at, DROP COLUMN actor, DROP COLUMN message,
    DROP COLUMN gateway_refund_id, DROP COLUMN idempotency_key, DROP COLUMN reason, DROP COLUMN status;
