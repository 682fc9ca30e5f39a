-- The campaign list (docs/campaigns.md): a campaign gets an address (slug) unique in its seller's
-- account, a flag for campaigns used as templates of bulk work, and a status that follows its sale:
-- active while a product of it is on sale (active) in one of its seller's stores, draft otherwise,
-- archived once the seller archives it.

-- +goose Up
-- campaign_slug is the address a campaign gets from its name: lower-case letters and digits with
-- single hyphens, at most 60 long, "campaign" when the name has none.
-- +goose StatementBegin
CREATE FUNCTION campaign_slug(name text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(nullif(trim(BOTH '-' FROM left(trim(BOTH '-' FROM regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g')), 60)), ''),
        'campaign')
$$;
-- +goose StatementEnd

ALTER TABLE campaigns
    ADD COLUMN slug text,
    ADD COLUMN template boolean NOT NULL DEFAULT false;
UPDATE campaigns SET slug = campaign_slug(name) || '-' || id;
ALTER TABLE campaigns
    ALTER COLUMN slug SET NOT NULL,
    ADD CONSTRAINT campaigns_slug_check CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 80),
    DROP CONSTRAINT campaigns_status_check,
    ADD CONSTRAINT campaigns_status_check CHECK (status IN ('draft', 'active', 'archived'));
CREATE UNIQUE INDEX campaigns_slug_key ON campaigns (user_id, slug);
-- The list filters an account's campaigns by status and kind.
CREATE INDEX campaigns_user_status_idx ON campaigns (user_id, status, id DESC);

-- A campaign made without an address (every path that creates one) gets its name's, or, when the
-- seller has that one already, its name's with its id.
-- +goose StatementBegin
CREATE FUNCTION campaigns_default_slug() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.slug IS NULL THEN
        NEW.slug := campaign_slug(NEW.name);
        IF EXISTS (SELECT 1 FROM campaigns WHERE user_id = NEW.user_id AND slug = NEW.slug) THEN
            NEW.slug := left(NEW.slug, 60) || '-' || NEW.id;
        END IF;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER campaigns_default_slug BEFORE INSERT ON campaigns FOR EACH ROW EXECUTE FUNCTION campaigns_default_slug();

-- Campaigns bulk imports and jobs were made from are templates.
UPDATE campaigns c SET template = true
WHERE EXISTS (SELECT 1 FROM bulk_uploads b WHERE b.template_campaign_id = c.id)
   OR EXISTS (SELECT 1 FROM bulk_records r WHERE r.template_campaign_id = c.id)
   OR EXISTS (SELECT 1 FROM bulk_campaign_jobs j WHERE j.template_campaign_id = c.id);

-- The status of a campaign follows its products on sale; an archived campaign stays archived.
UPDATE campaigns c SET status = CASE WHEN EXISTS (
    SELECT 1 FROM store_products sp JOIN stores s ON s.id = sp.store_id
    WHERE sp.campaign_id = c.id AND sp.status = 'active' AND s.owner_id = c.user_id) THEN 'active' ELSE 'draft' END;
-- +goose StatementBegin
CREATE FUNCTION campaign_sale_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE campaigns c SET status = s.status
    FROM (SELECT c2.id, CASE WHEN EXISTS (
            SELECT 1 FROM store_products sp JOIN stores st ON st.id = sp.store_id
            WHERE sp.campaign_id = c2.id AND sp.status = 'active' AND st.owner_id = c2.user_id) THEN 'active' ELSE 'draft' END AS status
          FROM campaigns c2
          WHERE c2.id IN (SELECT (x->>'campaign_id')::bigint
                          FROM unnest(ARRAY[CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END,
                                            CASE WHEN TG_OP IN ('UPDATE', 'INSERT') THEN to_jsonb(NEW) END]) x
                          WHERE x IS NOT NULL)) s
    WHERE c.id = s.id AND c.status <> 'archived' AND c.status <> s.status;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER store_products_campaign_status AFTER INSERT OR DELETE OR UPDATE OF status, campaign_id ON store_products
    FOR EACH ROW EXECUTE FUNCTION campaign_sale_status();

-- +goose Down
DROP TRIGGER store_products_campaign_status ON store_products;
DROP FUNCTION campaign_sale_status();
DROP TRIGGER campaigns_default_slug ON campaigns;
DROP FUNCTION campaigns_default_slug();
DROP INDEX campaigns_user_status_idx;
DROP INDEX campaigns_slug_key;
UPDATE campaigns SET status = 'draft' WHERE status = 'archived';
ALTER TABLE campaigns
    DROP CONSTRAINT campaigns_status_check,
    ADD CONSTRAINT campaigns_status_check CHECK (status IN ('draft', 'active')),
    DROP CONSTRAINT campaigns_slug_check,
    DROP COLUMN template,
    DROP COLUMN slug;
DROP FUNCTION campaign_slug(text);
