-- The bff keeps sessions in a per-process cache (docs/accounts.md, "caller cache") and must hear at
-- once of every change that could end or alter one: each bump of a user's auth version now also
-- notifies "u:<user id>" on channel auth_changed, and a session revoked, deleted or changed in
-- anything but its last use notifies "s:<session id>". Notifications are sent at commit, to every
-- process listening.

-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION bump_auth_version(uid bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO auth_versions (user_id, version) VALUES (uid, nextval('auth_version_seq'))
    ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version;
    SELECT pg_notify('auth_changed', 'u:' || uid);
$$;

CREATE FUNCTION session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('auth_changed', 's:' || OLD.id);
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER sessions_changed AFTER DELETE OR UPDATE OF user_id, token_hash, expires_at, revoked_at, kind,
    origin_user_id, tfa_passed ON sessions
    FOR EACH ROW EXECUTE FUNCTION session_changed();

-- +goose Down
DROP TRIGGER sessions_changed ON sessions;
DROP FUNCTION session_changed();
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION bump_auth_version(uid bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO auth_versions (user_id, version) VALUES (uid, nextval('auth_version_seq'))
    ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version;
$$;
-- +goose StatementEnd
