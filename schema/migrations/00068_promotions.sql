-- Promotions (docs/promotions.md): the store discount codes become the seller's promotions. A code
-- is unique per seller in any letter case and applies to all of the seller's stores, to chosen
-- stores or to chosen campaigns; it has a start and an end, usage limits per code and per buyer
-- (by e-mail), a minimum order and can be disabled. Every use is a discount_code_uses row, written
-- before the buyer is charged and tied to the order once paid. The abandoned-checkout coupons pick
-- from the same rows.

-- +goose Up
ALTER TABLE discount_codes
    ADD COLUMN seller_id          bigint REFERENCES users (id) ON DELETE CASCADE,
    ADD COLUMN applies_to         text        NOT NULL DEFAULT 'all',
    ADD COLUMN starts_at          timestamptz,
    ADD COLUMN ends_at            timestamptz,
    ADD COLUMN usage_limit        integer,
    ADD COLUMN per_buyer_limit    integer,
    ADD COLUMN min_order          bigint      NOT NULL DEFAULT 0,
    ADD COLUMN min_order_currency text        NOT NULL DEFAULT 'USD',
    ADD COLUMN disabled_at        timestamptz,
    ADD COLUMN updated_at         timestamptz NOT NULL DEFAULT now();

-- The stores a code applies to when applies_to is 'stores'.
CREATE TABLE discount_code_stores (
    discount_code_id bigint NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
    store_id         bigint NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    PRIMARY KEY (discount_code_id, store_id)
);
CREATE INDEX discount_code_stores_store_idx ON discount_code_stores (store_id);

-- The campaigns a code applies to when applies_to is 'campaigns'.
CREATE TABLE discount_code_campaigns (
    discount_code_id bigint NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
    campaign_id      bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    PRIMARY KEY (discount_code_id, campaign_id)
);
CREATE INDEX discount_code_campaigns_campaign_idx ON discount_code_campaigns (campaign_id);

-- A store's code becomes its owner's code for that store. Codes of one seller that differ only in
-- letter case (in two stores) merge into the oldest, which then applies to all of those stores.
UPDATE discount_codes d SET seller_id = s.owner_id, applies_to = 'stores', min_order_currency = s.currency
FROM stores s WHERE s.id = d.store_id;
INSERT INTO discount_code_stores (discount_code_id, store_id)
SELECT min(d.id) OVER (PARTITION BY d.seller_id, lower(d.code)), d.store_id FROM discount_codes d
ON CONFLICT DO NOTHING;
DELETE FROM discount_codes d USING discount_codes k
WHERE k.seller_id = d.seller_id AND lower(k.code) = lower(d.code) AND k.id < d.id;

UPDATE discount_codes SET percent = 0 WHERE kind = 'free';

DROP INDEX discount_codes_code_key;
ALTER TABLE discount_codes DROP COLUMN store_id;
ALTER TABLE discount_codes ALTER COLUMN seller_id SET NOT NULL;
CREATE UNIQUE INDEX discount_codes_code_key ON discount_codes (seller_id, lower(code));
ALTER TABLE discount_codes
    ADD CONSTRAINT discount_codes_applies_to_check CHECK (applies_to IN ('all', 'stores', 'campaigns')),
    ADD CONSTRAINT discount_codes_free_check CHECK (kind <> 'free' OR percent = 0),
    ADD CONSTRAINT discount_codes_dates_check CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at),
    ADD CONSTRAINT discount_codes_limits_check CHECK ((usage_limit IS NULL OR usage_limit > 0) AND (per_buyer_limit IS NULL OR per_buyer_limit > 0)),
    ADD CONSTRAINT discount_codes_min_order_check CHECK (min_order >= 0);

-- A use of a code by a checkout. Written (reserved) before the buyer is charged, with the lock on
-- the code held, so limits are never passed by buyers paying at once; order_id is set in the
-- transaction that turns the paid checkout into its order. A reservation without an order stops
-- counting after an hour (the buyer left) and is removed when the payment fails.
CREATE TABLE discount_code_uses (
    id               bigserial PRIMARY KEY,
    discount_code_id bigint      NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
    checkout_id      uuid        NOT NULL REFERENCES checkouts (id) ON DELETE CASCADE,
    order_id         bigint      REFERENCES orders (id) ON DELETE SET NULL,
    email            text        NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT discount_code_uses_checkout_key UNIQUE (checkout_id)
);
CREATE INDEX discount_code_uses_code_idx ON discount_code_uses (discount_code_id, lower(email));

-- +goose Down
DROP TABLE discount_code_uses;
ALTER TABLE discount_codes
    DROP CONSTRAINT discount_codes_applies_to_check,
    DROP CONSTRAINT discount_codes_free_check,
    DROP CONSTRAINT discount_codes_dates_check,
    DROP CONSTRAINT discount_codes_limits_check,
    DROP CONSTRAINT discount_codes_min_order_check;
DROP INDEX discount_codes_code_key;
ALTER TABLE discount_codes ADD COLUMN store_id bigint REFERENCES stores (id) ON DELETE CASCADE;
-- A code goes back to each store it was for; a code for all stores or for campaigns to every store
-- of its seller.
INSERT INTO discount_codes (store_id, seller_id, code, kind, percent, created_at)
SELECT s.store_id, d.seller_id, d.code, d.kind, d.percent, d.created_at
FROM discount_codes d JOIN discount_code_stores s ON s.discount_code_id = d.id;
INSERT INTO discount_codes (store_id, seller_id, code, kind, percent, created_at)
SELECT st.id, d.seller_id, d.code, d.kind, d.percent, d.created_at
FROM discount_codes d JOIN stores st ON st.owner_id = d.seller_id WHERE d.applies_to <> 'stores' AND d.store_id IS NULL;
DELETE FROM discount_codes WHERE store_id IS NULL;
DROP TABLE discount_code_campaigns;
DROP TABLE discount_code_stores;
ALTER TABLE discount_codes ALTER COLUMN store_id SET NOT NULL;
CREATE UNIQUE INDEX discount_codes_code_key ON discount_codes (store_id, lower(code));
ALTER TABLE discount_codes
    DROP COLUMN seller_id,
    DROP COLUMN applies_to,
    DROP COLUMN starts_at,
    DROP COLUMN ends_at,
    DROP COLUMN usage_limit,
    DROP COLUMN per_buyer_limit,
    DROP COLUMN min_order,
    DROP COLUMN min_order_currency,
    DROP COLUMN disabled_at,
    DROP COLUMN updated_at;
