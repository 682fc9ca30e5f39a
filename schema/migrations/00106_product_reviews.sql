-- Product reviews (docs/reviews.md): a buyer of a delivered item rates it (1 to 5) with a text and,
-- if they like, a photo, once per order item, from the signed link of the delivery e-mail. The
-- seller publishes, hides or replies; the store's review_setting decides which published reviews
-- its product pages show. Texts are plain text (markup and control characters taken out on save)
-- and escaped wherever shown; the photo is an upload, checked by render:sanitize like every other.

-- +goose Up
CREATE TABLE product_reviews (
    id              bigserial PRIMARY KEY,
    order_item_id   bigint      NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
    order_id        bigint      NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    seller_id       bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    store_id        bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    campaign_id     bigint      REFERENCES campaigns (id) ON DELETE SET NULL,
    product_name    text        NOT NULL,
    color           text        NOT NULL DEFAULT '',
    size            text        NOT NULL DEFAULT '',
    author_name     text        NOT NULL,
    rating          smallint    NOT NULL,
    body            text        NOT NULL,
    photo_upload_id bigint      REFERENCES uploads (id) ON DELETE SET NULL,
    status          text        NOT NULL DEFAULT 'pending',
    reply           text        NOT NULL DEFAULT '',
    replied_at      timestamptz,
    published_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT product_reviews_item_key UNIQUE (order_item_id),
    CONSTRAINT product_reviews_rating_check CHECK (rating BETWEEN 1 AND 5),
    CONSTRAINT product_reviews_body_check CHECK (length(body) BETWEEN 1 AND 2000),
    CONSTRAINT product_reviews_author_check CHECK (length(author_name) BETWEEN 1 AND 60),
    CONSTRAINT product_reviews_reply_check CHECK (length(reply) <= 2000),
    CONSTRAINT product_reviews_status_check CHECK (status IN ('pending', 'published', 'hidden'))
);
CREATE INDEX product_reviews_seller_idx ON product_reviews (seller_id, created_at DESC, id DESC);
-- What a product page reads: a campaign's published reviews, newest first.
CREATE INDEX product_reviews_published_idx ON product_reviews (campaign_id, published_at DESC, id DESC) WHERE status = 'published';

-- +goose Down
DROP TABLE product_reviews;
