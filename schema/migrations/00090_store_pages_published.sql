-- Store pages can be kept as drafts (docs/store-pages.md): a page not published shows in no menu,
-- answers 404 on the storefront and is left out of the sitemap. Pages made before are published.

-- +goose Up
ALTER TABLE store_pages ADD COLUMN published boolean NOT NULL DEFAULT true;
-- The pages screen lists every page of the seller's stores, newest first.
CREATE INDEX store_pages_store_idx ON store_pages (store_id, id DESC);

-- +goose Down
DROP INDEX store_pages_store_idx;
ALTER TABLE store_pages DROP COLUMN published;
