-- Accounts: users (the session user GET /api/me answers), their balances, sessions, stores and the
-- seller/team relation (authorized accounts with named permissions).

-- +goose Up
CREATE TABLE users (
    id                     bigserial PRIMARY KEY,
    name                   text        NOT NULL,
    email                  text        NOT NULL,
    password_hash          text        NOT NULL,
    avatar                 text,
    email_verified_at      timestamptz,
    email_need_verify_date date,
    phone                  text        NOT NULL DEFAULT '',
    facebook               text        NOT NULL DEFAULT '',
    balance                numeric(14, 2) NOT NULL DEFAULT 0,
    sale_volume            text,
    roles                  text[]      NOT NULL DEFAULT '{}',
    tags                   text[]      NOT NULL DEFAULT '{}',
    permissions            text[]      NOT NULL DEFAULT '{}',
    status                 text        NOT NULL DEFAULT 'new',
    custom_payment         boolean     NOT NULL DEFAULT false,
    is_ref                 boolean     NOT NULL DEFAULT false,
    ref_id                 bigint REFERENCES users (id) ON DELETE SET NULL,
    nickname               text        NOT NULL DEFAULT '',
    campaign_limit         integer     NOT NULL DEFAULT 0,
    tfa_enable             boolean     NOT NULL DEFAULT false,
    tfa_confirm            boolean     NOT NULL DEFAULT false,
    utc_offset             numeric(4, 2) NOT NULL DEFAULT 0,
    sms_credit             integer     NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT users_status_check CHECK (status IN ('new', 'verified', 'trusted', 'suspended'))
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- account_balance of the session user: one row per balance type.
CREATE TABLE account_balances (
    user_id bigint         NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    type    text           NOT NULL,
    balance numeric(14, 2) NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, type)
);

-- Sessions hold only the SHA-256 of the bearer token; the token itself never touches the database.
CREATE TABLE sessions (
    id           bigserial PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash   bytea       NOT NULL,
    client_ip    text        NOT NULL DEFAULT '',
    user_agent   text        NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz
);
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

CREATE TABLE stores (
    id         bigserial PRIMARY KEY,
    owner_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       text        NOT NULL,
    domain     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX stores_domain_key ON stores (lower(domain));
CREATE INDEX stores_owner_id_idx ON stores (owner_id);

-- A team member (authorized account) acts in a seller's account with named permissions,
-- optionally limited to some of the seller's stores (empty: all of them).
CREATE TABLE team_members (
    seller_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    member_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        text        NOT NULL DEFAULT 'staff',
    permissions text[]      NOT NULL DEFAULT '{}',
    store_ids   bigint[]    NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (seller_id, member_id),
    CONSTRAINT team_members_not_self CHECK (seller_id <> member_id)
);
CREATE INDEX team_members_member_id_idx ON team_members (member_id);

-- Security-relevant events: throttled logins, permission refusals, impersonation.
CREATE TABLE audit_events (
    id         bigserial PRIMARY KEY,
    user_id    bigint REFERENCES users (id) ON DELETE SET NULL,
    action     text        NOT NULL,
    detail     jsonb       NOT NULL DEFAULT '{}',
    client_ip  text        NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_events_created_at_idx ON audit_events (created_at);

-- +goose Down
DROP TABLE audit_events;
DROP TABLE team_members;
DROP TABLE stores;
DROP TABLE sessions;
DROP TABLE account_balances;
DROP TABLE users;
