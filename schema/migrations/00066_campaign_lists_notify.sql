-- The bff keeps the pages of each seller's campaign list in a per-process cache (docs/performance.md)
-- and must hear at once of every change that shows on them: a campaign itself, its products, its
-- designs' export states and its mockups notify "u:<owner id>" on channel campaign_lists_changed, and
-- a change of the mockup templates' order (which picks each campaign's default mockup) notifies "*".
-- Notifications are sent at commit, to every process listening, once per payload and transaction.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION campaign_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    o jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
    n jsonb := CASE WHEN TG_OP IN ('UPDATE', 'INSERT') THEN to_jsonb(NEW) END;
BEGIN
    IF TG_TABLE_NAME = 'mockup_templates' THEN
        PERFORM pg_notify('campaign_lists_changed', '*');
    ELSIF TG_TABLE_NAME = 'campaigns' THEN
        PERFORM pg_notify('campaign_lists_changed', 'u:' || u)
        FROM (SELECT DISTINCT (x->>'user_id')::bigint AS u FROM unnest(ARRAY[o, n]) x WHERE x IS NOT NULL) owners;
    ELSE
        PERFORM pg_notify('campaign_lists_changed', 'u:' || c.user_id)
        FROM campaigns c
        WHERE c.id IN (SELECT (x->>'campaign_id')::bigint FROM unnest(ARRAY[o, n]) x WHERE x IS NOT NULL);
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER campaigns_list_changed AFTER INSERT OR UPDATE OR DELETE ON campaigns
    FOR EACH ROW EXECUTE FUNCTION campaign_list_changed();
CREATE TRIGGER campaign_products_list_changed AFTER INSERT OR DELETE OR UPDATE OF campaign_id ON campaign_products
    FOR EACH ROW EXECUTE FUNCTION campaign_list_changed();
CREATE TRIGGER campaign_designs_list_changed AFTER INSERT OR DELETE OR UPDATE OF campaign_id, export_status
    ON campaign_designs
    FOR EACH ROW EXECUTE FUNCTION campaign_list_changed();
CREATE TRIGGER campaign_mockups_list_changed AFTER INSERT OR DELETE OR UPDATE OF campaign_id, product_id,
    mockup_template_id, status, file_url, preview_url, rendered_at, is_default_mockup, default_chosen ON campaign_mockups
    FOR EACH ROW EXECUTE FUNCTION campaign_list_changed();
CREATE TRIGGER mockup_templates_list_changed AFTER DELETE OR UPDATE OF id, position ON mockup_templates
    FOR EACH ROW EXECUTE FUNCTION campaign_list_changed();

-- +goose Down
DROP TRIGGER mockup_templates_list_changed ON mockup_templates;
DROP TRIGGER campaign_mockups_list_changed ON campaign_mockups;
DROP TRIGGER campaign_designs_list_changed ON campaign_designs;
DROP TRIGGER campaign_products_list_changed ON campaign_products;
DROP TRIGGER campaigns_list_changed ON campaigns;
DROP FUNCTION campaign_list_changed();
