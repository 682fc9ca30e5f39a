-- A failed mockup can be queued again by the seller: retries counts those requests and
-- names each one's task, so Asynq, which still remembers the failed task, takes the new one. Each
-- mockup also has a 500 px WebP preview beside its 2000 px file:
-- preview_url is its blob key, empty for a mockup made before previews existed.

-- +goose Up
ALTER TABLE campaign_mockups ADD COLUMN retries integer NOT NULL DEFAULT 0;
ALTER TABLE campaign_mockups ADD COLUMN preview_url text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE campaign_mockups DROP COLUMN preview_url;
ALTER TABLE campaign_mockups DROP COLUMN retries;
