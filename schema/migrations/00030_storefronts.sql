-- Storefronts (docs/storefront.md): what a seller's store shows buyers. A store gains its public
-- slug, branding, currency, target market, review setting and whether it is open; it has pages for
-- its menus; campaigns are published to it with a price per product; sizes and shipping rates are
-- the catalogue's selling facts.

-- +goose Up
-- slug names the store in its address ({slug}.{store domain} and /s/{slug}/): lower-case letters,
-- digits and single hyphens, 3 to 40 long. Stores made before slugs get store-{id}.
ALTER TABLE stores
    ADD COLUMN slug            text,
    ADD COLUMN logo_key        text        NOT NULL DEFAULT '',
    ADD COLUMN favicon_key     text        NOT NULL DEFAULT '',
    ADD COLUMN primary_color   text        NOT NULL DEFAULT '#1f2a44',
    ADD COLUMN accent_color    text        NOT NULL DEFAULT '#d82e8b',
    ADD COLUMN currency        text        NOT NULL DEFAULT 'USD',
    ADD COLUMN target_market   text        NOT NULL DEFAULT 'United States',
    ADD COLUMN review_setting  text        NOT NULL DEFAULT 'disable',
    ADD COLUMN is_open         boolean     NOT NULL DEFAULT true,
    ADD COLUMN updated_at      timestamptz NOT NULL DEFAULT now();
UPDATE stores SET slug = 'store-' || id;
ALTER TABLE stores
    ALTER COLUMN slug SET NOT NULL,
    ADD CONSTRAINT stores_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) BETWEEN 3 AND 40),
    ADD CONSTRAINT stores_currency_check CHECK (currency IN ('EUR', 'USD')),
    ADD CONSTRAINT stores_target_market_check CHECK (target_market IN ('Europe', 'United States', 'Canada', 'World Wide')),
    ADD CONSTRAINT stores_review_setting_check CHECK (review_setting IN ('disable', 'enable-only-store', 'enable-share-review')),
    ADD CONSTRAINT stores_colors_check CHECK (primary_color ~ '^#[0-9a-fA-F]{6}$' AND accent_color ~ '^#[0-9a-fA-F]{6}$');
CREATE UNIQUE INDEX stores_slug_key ON stores (slug);
-- A store created without a slug (by code that predates slugs) gets store-{id}.
-- +goose StatementBegin
CREATE FUNCTION stores_default_slug() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.slug IS NULL THEN
        NEW.slug := 'store-' || NEW.id;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER stores_default_slug BEFORE INSERT ON stores FOR EACH ROW EXECUTE FUNCTION stores_default_slug();

-- A page of a store (about, shipping policy...). body is HTML sanitized on save; menu_position says
-- which menu links it.
CREATE TABLE store_pages (
    id            bigserial PRIMARY KEY,
    store_id      bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    title         text        NOT NULL,
    slug          text        NOT NULL,
    body          text        NOT NULL DEFAULT '',
    menu_position text        NOT NULL DEFAULT 'footer',
    position      integer     NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT store_pages_slug_key UNIQUE (store_id, slug),
    CONSTRAINT store_pages_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80),
    CONSTRAINT store_pages_title_check CHECK (length(title) BETWEEN 1 AND 200),
    CONSTRAINT store_pages_menu_position_check CHECK (menu_position IN ('header', 'footer', 'side_column'))
);

-- A campaign's product on sale in a store: its price in the store's currency (minor units), an
-- optional compare-at price, and its product status, which decides whether buyers see it (active).
CREATE TABLE store_products (
    store_id          bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    product_id        bigint      NOT NULL REFERENCES campaign_products (id) ON DELETE CASCADE,
    campaign_id       bigint      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    price             bigint      NOT NULL,
    compare_at_price  bigint,
    currency          text        NOT NULL,
    status            text        NOT NULL DEFAULT 'active',
    published_at      timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (store_id, product_id),
    CONSTRAINT store_products_price_check CHECK (price BETWEEN 0 AND 1000000000
        AND (compare_at_price IS NULL OR compare_at_price BETWEEN 0 AND 1000000000)),
    CONSTRAINT store_products_currency_check CHECK (currency IN ('EUR', 'USD')),
    CONSTRAINT store_products_status_check CHECK (status IN ('draft', 'active', 'inactive', 'reviewing', 'blocked'))
);
CREATE INDEX store_products_campaign_idx ON store_products (store_id, campaign_id);
CREATE INDEX store_products_product_idx ON store_products (product_id);

-- The sizes of each product type, in the order a buyer picks from, with what a size adds to the
-- product's price (minor units, the store's currency).
CREATE TABLE product_sizes (
    product_type text    NOT NULL,
    size         text    NOT NULL,
    extra_price  bigint  NOT NULL DEFAULT 0,
    position     integer NOT NULL DEFAULT 0,
    PRIMARY KEY (product_type, size),
    CONSTRAINT product_sizes_extra_check CHECK (extra_price >= 0)
);
INSERT INTO product_sizes (product_type, size, extra_price, position) VALUES
    ('tshirt', 'S', 0, 1), ('tshirt', 'M', 0, 2), ('tshirt', 'L', 0, 3), ('tshirt', 'XL', 0, 4), ('tshirt', '2XL', 200, 5),
    ('hoodie', 'S', 0, 1), ('hoodie', 'M', 0, 2), ('hoodie', 'L', 0, 3), ('hoodie', 'XL', 0, 4), ('hoodie', '2XL', 300, 5),
    ('aop_shirt', 'S', 0, 1), ('aop_shirt', 'M', 0, 2), ('aop_shirt', 'L', 0, 3), ('aop_shirt', 'XL', 0, 4),
    ('mug', '11oz', 0, 1), ('mug', '15oz', 300, 2),
    ('poster', '12x18in', 0, 1), ('poster', '18x24in', 600, 2);

-- Shipping rates per product type and market: the first item of a type costs first_item, each
-- further item of it additional_item (minor units of currency). World Wide is the rate of every
-- country outside the named markets.
CREATE TABLE shipping_rates (
    product_type    text   NOT NULL,
    market          text   NOT NULL,
    currency        text   NOT NULL,
    first_item      bigint NOT NULL,
    additional_item bigint NOT NULL,
    PRIMARY KEY (product_type, market, currency),
    CONSTRAINT shipping_rates_market_check CHECK (market IN ('Europe', 'United States', 'Canada', 'World Wide')),
    CONSTRAINT shipping_rates_currency_check CHECK (currency IN ('EUR', 'USD')),
    CONSTRAINT shipping_rates_amounts_check CHECK (first_item >= 0 AND additional_item >= 0)
);
INSERT INTO shipping_rates (product_type, market, currency, first_item, additional_item)
SELECT t.product_type, m.market, c.currency, t.first_item * m.factor / 100, t.additional_item * m.factor / 100
FROM (VALUES ('tshirt', 499, 200), ('hoodie', 899, 400), ('aop_shirt', 599, 250), ('mug', 699, 300), ('poster', 599, 250))
        AS t (product_type, first_item, additional_item),
     (VALUES ('United States', 100), ('Canada', 150), ('Europe', 140), ('World Wide', 220)) AS m (market, factor),
     (VALUES ('USD'), ('EUR')) AS c (currency);

-- +goose Down
DROP TABLE shipping_rates;
DROP TABLE product_sizes;
DROP TABLE store_products;
DROP TABLE store_pages;
DROP TRIGGER stores_default_slug ON stores;
DROP FUNCTION stores_default_slug();
DROP INDEX stores_slug_key;
ALTER TABLE stores
    DROP CONSTRAINT stores_slug_check, DROP CONSTRAINT stores_currency_check,
    DROP CONSTRAINT stores_target_market_check, DROP CONSTRAINT stores_review_setting_check,
    DROP CONSTRAINT stores_colors_check,
    DROP COLUMN slug, DROP COLUMN logo_key, DROP COLUMN favicon_key, DROP COLUMN primary_color,
    DROP COLUMN accent_color, DROP COLUMN currency, DROP COLUMN target_market, DROP COLUMN review_setting,
    DROP COLUMN is_open, DROP COLUMN updated_at;
