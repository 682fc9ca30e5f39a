-- Design orders (docs/review.md): the orders of a
-- seller whose items need a print file checked by a designer before they go to print. Each item
-- carries the customer's personalization, the design document, the print file with the facts the
-- renderer measured, the deep-zoom tiles of that file, and every review action taken on it.

-- +goose Up
CREATE TABLE design_orders (
    id            bigserial PRIMARY KEY,
    seller_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The number the seller and the customer know the order by.
    number        text        NOT NULL,
    customer_name text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT design_orders_number_key UNIQUE (seller_id, number)
);

-- One printed product of an order, one print space. revision counts the print files the item has had
-- (re-render, replace); the renderer's tasks write their result only for the revision they were given.
-- print_status: pending (a print file is being rendered or measured), done, failed (print_error says
-- why). tiles_key is the blob key of the deep-zoom manifest of that revision's print file, '' until
-- the tiles are written.
CREATE TABLE design_order_items (
    id              bigserial PRIMARY KEY,
    order_id        bigint           NOT NULL REFERENCES design_orders (id) ON DELETE CASCADE,
    product_name    text             NOT NULL,
    product_type    text             NOT NULL DEFAULT '',
    -- {name, width, height, dpi, minDpi, printType} of the product's print space.
    print_space     jsonb            NOT NULL,
    -- The customer's custom texts and images: {"texts": [{label, value}], "images": [{label, key}]}.
    personalization jsonb            NOT NULL DEFAULT '{"texts":[],"images":[]}',
    design_json     jsonb            NOT NULL,
    status          text             NOT NULL DEFAULT 'designing',
    revision        integer          NOT NULL DEFAULT 1,
    print_status    text             NOT NULL DEFAULT 'pending',
    print_error     text             NOT NULL DEFAULT '',
    print_key       text             NOT NULL DEFAULT '',
    width           integer,
    height          integer,
    declared_dpi    double precision,
    byte_size       bigint,
    stripped        boolean,
    -- The effective-DPI report per image object (renderer/dpi Report); NULL for an uploaded file.
    dpi_report      jsonb,
    tiles_key       text             NOT NULL DEFAULT '',
    -- The deep-zoom manifest (renderer/tiles Manifest) stored at tiles_key, kept here for the viewer.
    tiles_manifest  jsonb,
    updated_at      timestamptz      NOT NULL DEFAULT now(),
    CONSTRAINT design_order_items_status_check CHECK (status IN ('designing', 'reviewing', 'approved', 'rejected')),
    CONSTRAINT design_order_items_print_status_check CHECK (print_status IN ('pending', 'done', 'failed')),
    CONSTRAINT design_order_items_revision_check CHECK (revision >= 1)
);
CREATE INDEX design_order_items_order_idx ON design_order_items (order_id, id);
CREATE INDEX design_order_items_status_idx ON design_order_items (status, id DESC);

-- Every action a designer took on an item: who, when, what, and the comment given.
CREATE TABLE design_review_events (
    id         bigserial PRIMARY KEY,
    item_id    bigint      NOT NULL REFERENCES design_order_items (id) ON DELETE CASCADE,
    user_id    bigint      REFERENCES users (id) ON DELETE SET NULL,
    action     text        NOT NULL,
    comment    text        NOT NULL DEFAULT '',
    -- The revision the action was taken on.
    revision   integer     NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT design_review_events_action_check CHECK (action IN ('approve', 'reject', 'replace', 'rerender'))
);
CREATE INDEX design_review_events_item_idx ON design_review_events (item_id, id DESC);

-- +goose Down
DROP TABLE design_review_events;
DROP TABLE design_order_items;
DROP TABLE design_orders;
