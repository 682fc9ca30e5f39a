-- Social feeds (docs/social-feeds.md): a store's products as a Google Merchant RSS feed or a
-- Facebook catalogue CSV, built by the worker into blob storage and served by the storefront at a
-- stable address. wanted_seq counts the changes that call for a build (the seller's edits, the
-- catalogue changing under the feed); a build records the wanted_seq it started from in built_seq,
-- so a build is due while wanted_seq > built_seq, and a build queued before a later one finished
-- has nothing left to do.

-- +goose Up
CREATE TABLE social_feeds (
    id            bigserial PRIMARY KEY,
    seller_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    store_id      bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    name          text        NOT NULL,
    format        text        NOT NULL,
    all_campaigns boolean     NOT NULL DEFAULT true,
    wanted_seq    bigint      NOT NULL DEFAULT 1,
    built_seq     bigint      NOT NULL DEFAULT 0,
    -- what the catalogue under the feed looked like when the last build read it.
    fingerprint   text        NOT NULL DEFAULT '',
    built_at      timestamptz,
    item_count    integer     NOT NULL DEFAULT 0,
    -- products on sale left out of the last build, for want of a finished mockup.
    skipped_count integer     NOT NULL DEFAULT 0,
    byte_size     bigint      NOT NULL DEFAULT 0,
    error         text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT social_feeds_name_check CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT social_feeds_format_check CHECK (format IN ('google', 'facebook'))
);
CREATE INDEX social_feeds_seller_idx ON social_feeds (seller_id, id DESC);
CREATE INDEX social_feeds_store_idx ON social_feeds (store_id);

-- The chosen campaigns of a feed that does not list all of them.
CREATE TABLE social_feed_campaigns (
    feed_id     bigint NOT NULL REFERENCES social_feeds (id) ON DELETE CASCADE,
    campaign_id bigint NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    PRIMARY KEY (feed_id, campaign_id)
);
CREATE INDEX social_feed_campaigns_campaign_idx ON social_feed_campaigns (campaign_id);

-- +goose Down
DROP TABLE social_feed_campaigns;
DROP TABLE social_feeds;
