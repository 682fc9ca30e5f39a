-- Accounts and access: what a session acts as (own account, a seller's account it switched
-- into, or a seller an admin impersonates), two-factor secrets and their spent codes, single-use
-- e-mail links (password reset, e-mail verification), the local mail outbox and team invitations.

-- +goose Up
-- A session acts as user_id. origin_user_id is the person behind it when that differs: the team
-- member who switched into a seller's account (kind 'switched') or the admin impersonating a seller
-- (kind 'impersonation'). tfa_passed records that this session entered a two-factor code.
ALTER TABLE sessions
    ADD COLUMN kind           text    NOT NULL DEFAULT 'own',
    ADD COLUMN origin_user_id bigint REFERENCES users (id) ON DELETE CASCADE,
    ADD COLUMN tfa_passed     boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT sessions_kind_check CHECK (
        (kind = 'own' AND origin_user_id IS NULL) OR
        (kind IN ('switched', 'impersonation') AND origin_user_id IS NOT NULL));

-- tfa_secret is the confirmed TOTP secret (base32) once two-factor is on; tfa_pending_secret is the
-- one being enrolled. tfa_last_step is the last time step whose code was accepted: a code is used once.
ALTER TABLE users
    ADD COLUMN tfa_secret         text,
    ADD COLUMN tfa_pending_secret text,
    ADD COLUMN tfa_last_step      bigint NOT NULL DEFAULT 0;

-- Recovery codes are stored hashed, each spent once.
CREATE TABLE tfa_recovery_codes (
    id        bigserial PRIMARY KEY,
    user_id   bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash bytea  NOT NULL,
    used_at   timestamptz
);
CREATE UNIQUE INDEX tfa_recovery_codes_hash_key ON tfa_recovery_codes (user_id, code_hash);

-- Links sent by e-mail: only the SHA-256 of the token is kept; each is spent once and expires.
CREATE TABLE email_tokens (
    id         bigserial PRIMARY KEY,
    user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    text        NOT NULL,
    token_hash bytea       NOT NULL,
    email      text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('reset_password', 'verify_email'))
);
CREATE UNIQUE INDEX email_tokens_hash_key ON email_tokens (token_hash);
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);

-- Messages kept when no SMTP server is configured, for the admin to read (every flow works offline).
CREATE TABLE mail_outbox (
    id         bigserial PRIMARY KEY,
    to_address text        NOT NULL,
    subject    text        NOT NULL,
    body       text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Invitations to join a seller's team; accepted by the invited address's account.
CREATE TABLE team_invitations (
    id          bigserial PRIMARY KEY,
    seller_id   bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email       text        NOT NULL,
    permissions text[]      NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    accepted_at timestamptz
);
CREATE UNIQUE INDEX team_invitations_open_key ON team_invitations (seller_id, lower(email)) WHERE accepted_at IS NULL;

-- +goose Down
DROP TABLE team_invitations;
DROP TABLE mail_outbox;
DROP TABLE email_tokens;
DROP TABLE tfa_recovery_codes;
ALTER TABLE users DROP COLUMN tfa_last_step, DROP COLUMN tfa_pending_secret, DROP COLUMN tfa_secret;
ALTER TABLE sessions DROP CONSTRAINT sessions_kind_check, DROP COLUMN tfa_passed, DROP COLUMN origin_user_id, DROP COLUMN kind;
