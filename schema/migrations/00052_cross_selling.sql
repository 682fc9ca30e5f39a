-- Cross-selling (docs/customers.md): a seller's rules "buyers of this campaign also see these
-- campaigns", one rule per campaign, its suggested campaigns in the seller's order. The storefront
-- shows them on the campaign's product page and in carts holding it.

-- +goose Up
CREATE TABLE cross_sell_rules (
    id          bigserial   PRIMARY KEY,
    seller_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    campaign_id bigint      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT cross_sell_rules_campaign_key UNIQUE (campaign_id)
);
CREATE INDEX cross_sell_rules_seller_idx ON cross_sell_rules (seller_id, id DESC);

CREATE TABLE cross_sell_targets (
    rule_id     bigint   NOT NULL REFERENCES cross_sell_rules (id) ON DELETE CASCADE,
    campaign_id bigint   NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    position    smallint NOT NULL,
    PRIMARY KEY (rule_id, campaign_id)
);
CREATE INDEX cross_sell_targets_campaign_idx ON cross_sell_targets (campaign_id);

-- The orders a rule produced are read from order items by campaign.
CREATE INDEX order_items_campaign_idx ON order_items (campaign_id, order_id);

-- +goose Down
DROP INDEX order_items_campaign_idx;
DROP TABLE cross_sell_targets;
DROP TABLE cross_sell_rules;
