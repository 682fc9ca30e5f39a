-- Base mockups (docs/mockups.md). A flat mockup of a design with custom objects (the texts and
-- pictures a buyer fills) has, beside its 500 px preview, a base mockup: the same template in the
-- same colour showing the design without those objects, a WebP of at most 500 px, under which the
-- storefront's live preview draws the buyer's own. base_url is its blob key,
-- p/{campaignId}/design_{mockupTemplateId}_{productId}_base.webp; empty for a design without custom
-- objects, a 3D mockup, a renderer built without a WebP encoder, and a mockup made before base mockups.

-- +goose Up
ALTER TABLE campaign_mockups ADD COLUMN base_url text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE campaign_mockups DROP COLUMN base_url;
