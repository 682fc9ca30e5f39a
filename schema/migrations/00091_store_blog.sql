-- The store blog (docs/store-blog.md). A seller keeps blog categories (name and an address unique in
-- the account); each store has its posts, with an address unique in the store, an optional cover
-- (one of the seller's uploads), a sanitized HTML body, an excerpt and categories of the seller's. A
-- post is a draft or published; a published post has its publish date and shows on the storefront
-- once that date has come.

-- +goose Up
CREATE TABLE blog_categories (
    id          bigserial PRIMARY KEY,
    seller_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        text        NOT NULL,
    slug        text        NOT NULL,
    description text        NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT blog_categories_slug_key UNIQUE (seller_id, slug),
    CONSTRAINT blog_categories_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80),
    CONSTRAINT blog_categories_name_check CHECK (length(name) BETWEEN 1 AND 100),
    CONSTRAINT blog_categories_description_check CHECK (length(description) <= 1000)
);

CREATE TABLE blog_posts (
    id           bigserial PRIMARY KEY,
    store_id     bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    title        text        NOT NULL,
    slug         text        NOT NULL,
    excerpt      text        NOT NULL DEFAULT '',
    body         text        NOT NULL DEFAULT '',
    -- The blob key of the cover image, an upload of the seller's; '' for none.
    cover_key    text        NOT NULL DEFAULT '',
    status       text        NOT NULL DEFAULT 'draft',
    published_at timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT blog_posts_slug_key UNIQUE (store_id, slug),
    CONSTRAINT blog_posts_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80),
    CONSTRAINT blog_posts_title_check CHECK (length(title) BETWEEN 1 AND 200),
    CONSTRAINT blog_posts_excerpt_check CHECK (length(excerpt) <= 500),
    CONSTRAINT blog_posts_status_check CHECK (status IN ('draft', 'published')),
    CONSTRAINT blog_posts_published_check CHECK (status = 'draft' OR published_at IS NOT NULL)
);
-- The storefront's blog: a store's published posts, newest first.
CREATE INDEX blog_posts_public_idx ON blog_posts (store_id, published_at DESC, id DESC) WHERE status = 'published';

CREATE TABLE blog_post_categories (
    post_id     bigint NOT NULL REFERENCES blog_posts (id) ON DELETE CASCADE,
    category_id bigint NOT NULL REFERENCES blog_categories (id) ON DELETE CASCADE,
    PRIMARY KEY (post_id, category_id)
);
CREATE INDEX blog_post_categories_category_idx ON blog_post_categories (category_id);

-- +goose Down
DROP TABLE blog_post_categories;
DROP TABLE blog_posts;
DROP TABLE blog_categories;
