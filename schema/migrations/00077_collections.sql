-- Collections (docs/collections.md): a seller groups campaigns under a name and an address (slug,
-- unique per seller) for the storefront's menu, home page and /collections/{slug} page. A collection
-- shows in every store of its seller, or only in the stores chosen for it (all_stores false). Some
-- of its campaigns are featured, in the seller's order (featured_position 1, 2, ...); the others
-- have none.

-- +goose Up
CREATE TABLE collections (
    id          bigserial PRIMARY KEY,
    seller_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    slug        text        NOT NULL,
    description text        NOT NULL DEFAULT '',
    all_stores  boolean     NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT collections_slug_key UNIQUE (seller_id, slug),
    CONSTRAINT collections_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80),
    CONSTRAINT collections_name_check CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT collections_description_check CHECK (length(description) <= 2000)
);

-- The stores a collection shows in when all_stores is false.
CREATE TABLE collection_stores (
    collection_id bigint NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    store_id      bigint NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    PRIMARY KEY (collection_id, store_id)
);
CREATE INDEX collection_stores_store_idx ON collection_stores (store_id);

-- The campaigns of a collection; featured_position orders the featured ones.
CREATE TABLE collection_campaigns (
    collection_id     bigint      NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    campaign_id       bigint      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    featured_position integer,
    added_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (collection_id, campaign_id),
    CONSTRAINT collection_campaigns_featured_check CHECK (featured_position IS NULL OR featured_position > 0)
);
CREATE UNIQUE INDEX collection_campaigns_featured_key ON collection_campaigns (collection_id, featured_position)
    WHERE featured_position IS NOT NULL;
CREATE INDEX collection_campaigns_campaign_idx ON collection_campaigns (campaign_id);

-- +goose Down
DROP TABLE collection_campaigns;
DROP TABLE collection_stores;
DROP TABLE collections;
