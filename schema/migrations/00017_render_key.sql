-- A print file is fully determined by its design document and the sources the document reads:
-- render_key is the fingerprint of both (renderer/export), recorded with every finished export, so that
-- a design identical to one already printed (the back of every campaign a bulk upload makes, copied
-- from the template campaign) copies that print file instead of rendering it again.

-- +goose Up
ALTER TABLE campaign_designs ADD COLUMN render_key text NOT NULL DEFAULT '';
CREATE INDEX campaign_designs_render_key_idx ON campaign_designs (render_key) WHERE render_key <> '';

-- +goose Down
DROP INDEX campaign_designs_render_key_idx;
ALTER TABLE campaign_designs DROP COLUMN render_key;
