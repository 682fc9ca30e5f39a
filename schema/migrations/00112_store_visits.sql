-- Store visits and devices (docs/overview.md): the storefront counts the pages buyers open per store,
-- hour and device class and adds its counts in batches; a checkout keeps the device class it was
-- saved from, so an order's device is its checkout's.

-- +goose Up
CREATE TABLE store_visits (
    store_id bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    hour     timestamptz NOT NULL,
    device   text        NOT NULL,
    visits   integer     NOT NULL,
    PRIMARY KEY (store_id, hour, device),
    CONSTRAINT store_visits_device_check CHECK (device IN ('desktop', 'mobile', 'tablet')),
    CONSTRAINT store_visits_visits_check CHECK (visits >= 1)
);

ALTER TABLE checkouts ADD COLUMN device text NOT NULL DEFAULT '',
    ADD CONSTRAINT checkouts_device_check CHECK (device IN ('', 'desktop', 'mobile', 'tablet'));

-- +goose Down
ALTER TABLE checkouts DROP CONSTRAINT checkouts_device_check, DROP COLUMN device;
DROP TABLE store_visits;
