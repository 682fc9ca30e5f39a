-- The buyer's personalization (docs/personalization.md).
--
-- A cart line keeps what the buyer typed, chose and uploaded for its product, in the shape the order
-- item and the designer review keep ({"texts": [...], "images": [...]}). Two lines of one product,
-- colour and size with different personalizations are two lines: personalization_key (a digest of
-- it, '' for none) is part of the line's key.
--
-- A customer image was an image named "custom"; it is now an image with "isCustom": true, as a
-- customer text always was, so that one rule (the document's isCustom) says what a buyer fills.

-- +goose Up
ALTER TABLE cart_items
    ADD COLUMN personalization     jsonb NOT NULL DEFAULT '{"texts":[],"images":[]}',
    ADD COLUMN personalization_key text  NOT NULL DEFAULT '',
    DROP CONSTRAINT cart_items_line_key,
    ADD CONSTRAINT cart_items_line_key UNIQUE (cart_id, product_id, color, size, personalization_key);

UPDATE campaign_designs SET design_json = jsonb_set(design_json, '{objects}', (
    SELECT jsonb_agg(CASE WHEN o ->> 'type' = 'image' AND o ->> 'name' = 'custom'
                          THEN (o - 'name') || '{"isCustom": true}' ELSE o END ORDER BY n)
    FROM jsonb_array_elements(design_json -> 'objects') WITH ORDINALITY AS t (o, n)))
WHERE design_json -> 'objects' @> '[{"type": "image", "name": "custom"}]';

UPDATE design_order_items SET design_json = jsonb_set(design_json, '{objects}', (
    SELECT jsonb_agg(CASE WHEN o ->> 'type' = 'image' AND o ->> 'name' = 'custom'
                          THEN (o - 'name') || '{"isCustom": true}' ELSE o END ORDER BY n)
    FROM jsonb_array_elements(design_json -> 'objects') WITH ORDINALITY AS t (o, n)))
WHERE design_json -> 'objects' @> '[{"type": "image", "name": "custom"}]';

-- +goose Down
DELETE FROM cart_items a USING cart_items b
WHERE a.cart_id = b.cart_id AND a.product_id = b.product_id AND a.color = b.color AND a.size = b.size AND a.id > b.id;
ALTER TABLE cart_items
    DROP CONSTRAINT cart_items_line_key,
    DROP COLUMN personalization_key,
    DROP COLUMN personalization,
    ADD CONSTRAINT cart_items_line_key UNIQUE (cart_id, product_id, color, size);
