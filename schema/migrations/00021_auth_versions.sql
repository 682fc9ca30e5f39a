-- A version per user, bumped by triggers whenever anything a request's caller is built from changes:
-- the user row (roles, permissions, status, tags, two-factor, balance...), its balances, the stores it
-- owns, and team memberships on either side. The bff keeps callers in a per-process cache and reads
-- only the versions with the session on each request: whatever process or statement changes a user,
-- the next request everywhere sees a new version and loads the user again.

-- +goose Up
CREATE TABLE auth_versions (
    user_id bigint PRIMARY KEY,
    version bigint NOT NULL
);

CREATE SEQUENCE auth_version_seq;

-- +goose StatementBegin
CREATE FUNCTION bump_auth_version(uid bigint) RETURNS void LANGUAGE sql AS $$
    INSERT INTO auth_versions (user_id, version) VALUES (uid, nextval('auth_version_seq'))
    ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version;
$$;

CREATE FUNCTION auth_version_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    col text := TG_ARGV[0];
    o jsonb := CASE WHEN TG_OP IN ('UPDATE', 'DELETE') THEN to_jsonb(OLD) END;
    n jsonb := CASE WHEN TG_OP IN ('UPDATE', 'INSERT') THEN to_jsonb(NEW) END;
    i int;
BEGIN
    FOR i IN 0 .. TG_NARGS - 1 LOOP
        col := TG_ARGV[i];
        IF o IS NOT NULL AND o->>col IS NOT NULL THEN PERFORM bump_auth_version((o->>col)::bigint); END IF;
        IF n IS NOT NULL AND n->>col IS NOT NULL AND (o IS NULL OR n->>col IS DISTINCT FROM o->>col) THEN
            PERFORM bump_auth_version((n->>col)::bigint);
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER users_auth_version AFTER UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION auth_version_changed('id');
CREATE TRIGGER account_balances_auth_version AFTER INSERT OR UPDATE OR DELETE ON account_balances
    FOR EACH ROW EXECUTE FUNCTION auth_version_changed('user_id');
CREATE TRIGGER stores_auth_version AFTER INSERT OR UPDATE OF owner_id OR DELETE ON stores
    FOR EACH ROW EXECUTE FUNCTION auth_version_changed('owner_id');
CREATE TRIGGER team_members_auth_version AFTER INSERT OR UPDATE OR DELETE ON team_members
    FOR EACH ROW EXECUTE FUNCTION auth_version_changed('seller_id', 'member_id');

-- +goose Down
DROP TRIGGER team_members_auth_version ON team_members;
DROP TRIGGER stores_auth_version ON stores;
DROP TRIGGER account_balances_auth_version ON account_balances;
DROP TRIGGER users_auth_version ON users;
DROP FUNCTION auth_version_changed();
DROP FUNCTION bump_auth_version(bigint);
DROP SEQUENCE auth_version_seq;
DROP TABLE auth_versions;
