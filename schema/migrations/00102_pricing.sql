-- Pricing (docs/pricing.md): a product on sale in a store is priced in one of three modes, and in
-- custom_price mode each size has a price of its own; the compare-at price follows a platform rate.

-- +goose Up
-- price_mode: adjust_price (every size at its base cost plus one margin: price holds the base cost
-- plus the margin, and each size adds what it costs beyond the base), fixed_price (every size at
-- price) or custom_price (each size at its store_product_sizes price; price is the lowest of them).
-- Products published before keep what buyers paid: base cost plus margin, plus the size's extra.
ALTER TABLE store_products
    ADD COLUMN price_mode text NOT NULL DEFAULT 'adjust_price',
    ADD CONSTRAINT store_products_price_mode_check CHECK (price_mode IN ('adjust_price', 'fixed_price', 'custom_price'));

-- The price of each size of a product in custom_price mode, in the product's currency (minor units).
CREATE TABLE store_product_sizes (
    store_id   bigint NOT NULL,
    product_id bigint NOT NULL,
    size       text   NOT NULL,
    price      bigint NOT NULL,
    PRIMARY KEY (store_id, product_id, size),
    CONSTRAINT store_product_sizes_product_fkey FOREIGN KEY (store_id, product_id)
        REFERENCES store_products (store_id, product_id) ON DELETE CASCADE,
    CONSTRAINT store_product_sizes_price_check CHECK (price BETWEEN 0 AND 1000000000)
);

-- compare_price_rate: the compare-at price is the price raised by this percent (0: none shown).
INSERT INTO system_configs (key, value) VALUES ('compare_price_rate', '25') ON CONFLICT (key) DO NOTHING;

-- +goose Down
DELETE FROM system_configs WHERE key = 'compare_price_rate';
DROP TABLE store_product_sizes;
ALTER TABLE store_products DROP CONSTRAINT store_products_price_mode_check, DROP COLUMN price_mode;
