-- Whether a product's default mockup is the seller's choice. Until the
-- seller chooses, the default follows the mockup templates' order: a product's print files finish in
-- any order, and the mockup of the first template becomes the default when it appears, even after
-- another one was shown as the default first.

-- +goose Up
ALTER TABLE campaign_mockups ADD COLUMN default_chosen boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE campaign_mockups DROP COLUMN default_chosen;
