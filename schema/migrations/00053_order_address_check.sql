-- +goose Up
-- The country rules' verdict on an order's shipping address: NULL when it passes, else the failing
-- fields ([{field, message}]). An order whose address fails derives the fulfilment status
-- 'invalid' and is not produced until the seller fixes it (docs/orders.md).
ALTER TABLE orders ADD COLUMN address_errors jsonb;
CREATE INDEX orders_invalid_address_idx ON orders (seller_id, id DESC) WHERE fulfillment_status = 'invalid';

-- +goose Down
DROP INDEX orders_invalid_address_idx;
ALTER TABLE orders DROP COLUMN address_errors;
