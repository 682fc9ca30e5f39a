-- A seller's customers (docs/customers.md): the buyers of the seller's orders, one per e-mail as the
-- orders list searches it (lower case). A customer is derived from orders; its row only gives it a
-- stable id, made by a trigger the first time an order carries the address, so every way an order
-- is written (checkout, import, an e-mail corrected later) makes its customer.

-- +goose Up
CREATE TABLE customers (
    id         bigserial   PRIMARY KEY,
    seller_id  bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email      text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT customers_email_key UNIQUE (seller_id, email),
    CONSTRAINT customers_email_check CHECK (email <> '' AND email = lower(email))
);

-- +goose StatementBegin
CREATE FUNCTION orders_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.email <> '' THEN
        INSERT INTO customers (seller_id, email) VALUES (NEW.seller_id, lower(NEW.email)) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER orders_customer AFTER INSERT OR UPDATE OF email ON orders
    FOR EACH ROW EXECUTE FUNCTION orders_customer();

INSERT INTO customers (seller_id, email, created_at)
SELECT seller_id, lower(email), min(created_at) FROM orders WHERE email <> '' GROUP BY 1, 2
ON CONFLICT DO NOTHING;

-- A customer's orders are read by (seller, lower(email)): orders_seller_email_idx (00044) serves
-- the equality and the prefix search alike.

-- +goose Down
DROP TRIGGER orders_customer ON orders;
DROP FUNCTION orders_customer();
DROP TABLE customers;
