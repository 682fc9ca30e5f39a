-- Selling (docs/commerce.md): buyers' carts and checkouts, the orders a paid checkout creates with
-- their items and events, payments and refunds (the payment status derives from them), shipments
-- (the fulfilment status derives from them) and the gateway events already applied.

-- +goose Up
-- A cart is held by a buyer's cookie (its random id); its rows are what the buyer picked, never a
-- price: prices are read from store_products whenever the cart is shown or checked out.
CREATE TABLE carts (
    id         uuid        PRIMARY KEY,
    store_id   bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE cart_items (
    id         bigserial PRIMARY KEY,
    cart_id    uuid        NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    product_id bigint      NOT NULL REFERENCES campaign_products (id) ON DELETE CASCADE,
    color      text        NOT NULL,
    size       text        NOT NULL,
    quantity   integer     NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT cart_items_line_key UNIQUE (cart_id, product_id, color, size),
    CONSTRAINT cart_items_quantity_check CHECK (quantity BETWEEN 1 AND 100)
);

-- A checkout: the buyer's contact and shipping address, tip and discount code, with the totals the
-- server computed from them (minor units of currency). status: open, paid (order_id set once) or
-- abandoned. The lines are copied when the checkout is saved, so what is paid is what was shown.
CREATE TABLE checkouts (
    id            uuid        PRIMARY KEY,
    store_id      bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    cart_id       uuid        REFERENCES carts (id) ON DELETE SET NULL,
    email         text        NOT NULL,
    address       jsonb       NOT NULL,
    tip_percent   integer,
    discount_code text        NOT NULL DEFAULT '',
    lines         jsonb       NOT NULL,
    currency      text        NOT NULL,
    subtotal      bigint      NOT NULL,
    shipping      bigint      NOT NULL,
    discount      bigint      NOT NULL,
    tip           bigint      NOT NULL,
    total         bigint      NOT NULL,
    status        text        NOT NULL DEFAULT 'open',
    order_id      bigint,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT checkouts_status_check CHECK (status IN ('open', 'paid', 'abandoned')),
    CONSTRAINT checkouts_tip_check CHECK (tip_percent IS NULL OR tip_percent IN (0, 2, 5, 10)),
    CONSTRAINT checkouts_lines_check CHECK (jsonb_typeof(lines) = 'array')
);
CREATE INDEX checkouts_open_idx ON checkouts (updated_at) WHERE status = 'open';

-- The last order number given per seller: numbers are per seller and never reused.
CREATE TABLE order_numbers (
    seller_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    last      bigint NOT NULL
);

-- An order. status moves only through commerce/orders' state machine (each move an order_events
-- row); payment_status and fulfillment_status are derived from payments/refunds and shipments by
-- commerce/orders, never set by hand. One order per checkout.
CREATE TABLE orders (
    id                 bigserial PRIMARY KEY,
    seller_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    store_id           bigint      REFERENCES stores (id) ON DELETE SET NULL,
    checkout_id        uuid        REFERENCES checkouts (id) ON DELETE SET NULL,
    number             text        NOT NULL,
    order_type         text        NOT NULL DEFAULT 'regular',
    email              text        NOT NULL DEFAULT '',
    customer_name      text        NOT NULL DEFAULT '',
    shipping_address   jsonb       NOT NULL DEFAULT '{}',
    currency           text        NOT NULL DEFAULT 'USD',
    subtotal           bigint      NOT NULL DEFAULT 0,
    shipping           bigint      NOT NULL DEFAULT 0,
    discount           bigint      NOT NULL DEFAULT 0,
    tip                bigint      NOT NULL DEFAULT 0,
    total              bigint      NOT NULL DEFAULT 0,
    status             text        NOT NULL DEFAULT 'draft',
    payment_status     text        NOT NULL DEFAULT 'unpaid',
    fulfillment_status text        NOT NULL DEFAULT 'unfulfilled',
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT orders_number_key UNIQUE (seller_id, number),
    CONSTRAINT orders_checkout_key UNIQUE (checkout_id),
    CONSTRAINT orders_type_check CHECK (order_type IN ('regular', 'fulfillment', 'custom', 'fba')),
    CONSTRAINT orders_status_check CHECK (status IN ('archived', 'cancelled', 'completed', 'deleted', 'draft', 'on_hold',
        'pending', 'pending_payment', 'processing', 'refunded', 'reviewing', 'designing')),
    CONSTRAINT orders_payment_status_check CHECK (payment_status IN ('unpaid', 'paid', 'partially_paid', 'refunded',
        'partially_refunded', 'authorized', 'pending', 'failed', 'canceled')),
    CONSTRAINT orders_fulfillment_status_check CHECK (fulfillment_status IN ('unfulfilled', 'fulfilled', 'partial_fulfilled',
        'cancelled', 'on_hold', 'processing', 'invalid', 'rejected', 'reviewing', 'designing', 'on_delivery')),
    CONSTRAINT orders_amounts_check CHECK (subtotal >= 0 AND shipping >= 0 AND discount >= 0 AND tip >= 0 AND total >= 0)
);
CREATE INDEX orders_seller_idx ON orders (seller_id, id DESC);
ALTER TABLE checkouts ADD CONSTRAINT checkouts_order_fkey FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE SET NULL;

-- An item: what was bought, at which unit price, with the design revision and the buyer's
-- personalization it was bought with (its print file is rendered from exactly those).
CREATE TABLE order_items (
    id              bigserial PRIMARY KEY,
    order_id        bigint      NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    campaign_id     bigint      REFERENCES campaigns (id) ON DELETE SET NULL,
    product_id      bigint      REFERENCES campaign_products (id) ON DELETE SET NULL,
    product_name    text        NOT NULL,
    product_type    text        NOT NULL DEFAULT '',
    color           text        NOT NULL DEFAULT '',
    size            text        NOT NULL DEFAULT '',
    quantity        integer     NOT NULL,
    unit_price      bigint      NOT NULL,
    design_id       bigint      REFERENCES campaign_designs (id) ON DELETE SET NULL,
    design_revision integer,
    personalization jsonb       NOT NULL DEFAULT '{"texts":[],"images":[]}',
    created_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT order_items_quantity_check CHECK (quantity BETWEEN 1 AND 100),
    CONSTRAINT order_items_price_check CHECK (unit_price >= 0)
);
CREATE INDEX order_items_order_idx ON order_items (order_id, id);

-- Every move of an order's status, in the transaction that made it.
CREATE TABLE order_events (
    id          bigserial PRIMARY KEY,
    order_id    bigint      NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    action      text        NOT NULL,
    from_status text        NOT NULL DEFAULT '',
    to_status   text        NOT NULL,
    actor       text        NOT NULL DEFAULT '',
    note        text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_events_order_idx ON order_events (order_id, id);

-- A payment through a gateway: one per intent; idempotency_key makes a retried create the same
-- payment. status: pending, authorized, succeeded, failed, canceled.
CREATE TABLE payments (
    id              bigserial PRIMARY KEY,
    checkout_id     uuid        REFERENCES checkouts (id) ON DELETE SET NULL,
    order_id        bigint      REFERENCES orders (id) ON DELETE CASCADE,
    gateway         text        NOT NULL,
    intent_id       text        NOT NULL,
    idempotency_key text        NOT NULL,
    amount          bigint      NOT NULL,
    currency        text        NOT NULL,
    status          text        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT payments_intent_key UNIQUE (gateway, intent_id),
    CONSTRAINT payments_idempotency_key UNIQUE (gateway, idempotency_key),
    CONSTRAINT payments_status_check CHECK (status IN ('pending', 'authorized', 'succeeded', 'failed', 'canceled')),
    CONSTRAINT payments_amount_check CHECK (amount >= 0)
);
CREATE INDEX payments_order_idx ON payments (order_id);

CREATE TABLE refunds (
    id         bigserial PRIMARY KEY,
    payment_id bigint      NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
    amount     bigint      NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT refunds_amount_check CHECK (amount > 0)
);
CREATE INDEX refunds_payment_idx ON refunds (payment_id);

-- A shipment of an item (all of its quantity); delivered_at once the carrier says so.
CREATE TABLE shipments (
    id            bigserial PRIMARY KEY,
    order_item_id bigint      NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
    carrier       text        NOT NULL DEFAULT '',
    tracking      text        NOT NULL DEFAULT '',
    shipped_at    timestamptz NOT NULL DEFAULT now(),
    delivered_at  timestamptz
);
CREATE INDEX shipments_item_idx ON shipments (order_item_id);

-- Gateway events already applied: a webhook delivered again is recognised by its id.
CREATE TABLE payment_events (
    gateway     text        NOT NULL,
    event_id    text        NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (gateway, event_id)
);

-- The designer review's orders point at the order they belong to, and their items at the order
-- item, so a paid order's print files go through the review screens.
ALTER TABLE design_orders ADD COLUMN order_id bigint REFERENCES orders (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX design_orders_order_key ON design_orders (order_id);
ALTER TABLE design_order_items ADD COLUMN order_item_id bigint REFERENCES order_items (id) ON DELETE CASCADE;
CREATE INDEX design_order_items_order_item_idx ON design_order_items (order_item_id);

-- +goose Down
DROP INDEX design_order_items_order_item_idx;
ALTER TABLE design_order_items DROP COLUMN order_item_id;
DROP INDEX design_orders_order_key;
ALTER TABLE design_orders DROP COLUMN order_id;
DROP TABLE payment_events;
DROP TABLE shipments;
DROP TABLE refunds;
DROP TABLE payments;
DROP TABLE order_events;
DROP TABLE order_items;
ALTER TABLE checkouts DROP CONSTRAINT checkouts_order_fkey;
DROP TABLE orders;
DROP TABLE order_numbers;
DROP TABLE checkouts;
DROP TABLE cart_items;
DROP TABLE carts;
