-- Custom domains (docs/domains.md): a store's domain is proven by a DNS TXT record holding its token
-- at _pressroom-verify.{domain}. The same rows are the sending domains of email marketing, which
-- already read verified_at. verified_at is set while the latest check found the record and cleared
-- when a later check did not; status follows from it and from the last check's error, so it can
-- never disagree with them.

-- +goose Up
UPDATE store_domains SET domain = lower(domain) WHERE domain <> lower(domain);
ALTER TABLE store_domains
    ADD COLUMN token       text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', ''),
    ADD COLUMN checked_at  timestamptz,
    ADD COLUMN check_error text NOT NULL DEFAULT '',
    ADD COLUMN status      text GENERATED ALWAYS AS (CASE
        WHEN verified_at IS NOT NULL THEN 'verified'
        WHEN check_error <> '' THEN 'failed'
        ELSE 'pending' END) STORED,
    ADD CONSTRAINT store_domains_domain_check CHECK (domain = lower(domain) AND domain <> ''),
    ADD CONSTRAINT store_domains_token_check CHECK (length(token) >= 16);
-- The worker re-checks domains not yet verified.
CREATE INDEX store_domains_unverified_idx ON store_domains (checked_at) WHERE verified_at IS NULL;

-- +goose Down
DROP INDEX store_domains_unverified_idx;
ALTER TABLE store_domains
    DROP CONSTRAINT store_domains_token_check,
    DROP CONSTRAINT store_domains_domain_check,
    DROP COLUMN status,
    DROP COLUMN check_error,
    DROP COLUMN checked_at,
    DROP COLUMN token;
