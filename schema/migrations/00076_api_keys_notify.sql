-- The bff keeps API keys in a per-process cache (docs/performance.md, api-v1) and must hear at once
-- of every change that could end or alter one: a key revoked, expired, re-scoped or deleted
-- notifies "k:<key id>" on channel auth_changed (a change of its account notifies "u:<user id>"
-- already, through bump_auth_version). Moving last_used_at changes nothing a request is admitted
-- by, so it notifies nothing.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('auth_changed', 'k:' || OLD.id);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER api_keys_changed AFTER DELETE OR UPDATE OF seller_id, secret_hash, scopes, test_mode, expires_at,
    revoked_at ON api_keys
    FOR EACH ROW EXECUTE FUNCTION api_key_changed();

-- +goose Down
DROP TRIGGER api_keys_changed ON api_keys;
DROP FUNCTION api_key_changed();
