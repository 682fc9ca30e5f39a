-- The seller's orders list (docs/orders.md): each filter, newest first, within one seller; the
-- e-mail search reads a prefix of the lower-cased address.

-- +goose Up
CREATE INDEX orders_seller_status_idx ON orders (seller_id, status, id DESC);
CREATE INDEX orders_seller_payment_idx ON orders (seller_id, payment_status, id DESC);
CREATE INDEX orders_seller_fulfillment_idx ON orders (seller_id, fulfillment_status, id DESC);
CREATE INDEX orders_seller_type_idx ON orders (seller_id, order_type, id DESC);
CREATE INDEX orders_seller_store_idx ON orders (seller_id, store_id, id DESC);
CREATE INDEX orders_seller_created_idx ON orders (seller_id, created_at DESC, id DESC);
CREATE INDEX orders_seller_email_idx ON orders (seller_id, lower(email) text_pattern_ops);

-- +goose Down
DROP INDEX orders_seller_email_idx;
DROP INDEX orders_seller_created_idx;
DROP INDEX orders_seller_store_idx;
DROP INDEX orders_seller_type_idx;
DROP INDEX orders_seller_fulfillment_idx;
DROP INDEX orders_seller_payment_idx;
DROP INDEX orders_seller_status_idx;
