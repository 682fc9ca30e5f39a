-- Changing the account's e-mail address: the new address is confirmed by a link sent to it, kept in
-- email_tokens like the other e-mailed links, under the purpose change_email (its email column is the
-- new address).

-- +goose Up
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
    CHECK (purpose IN ('reset_password', 'verify_email', 'change_email'));

-- +goose Down
DELETE FROM email_tokens WHERE purpose = 'change_email';
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check
    CHECK (purpose IN ('reset_password', 'verify_email'));
