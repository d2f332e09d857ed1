-- Account settings kept on the account, not in one browser: notification preferences (email on by
-- default: deploy failures, quota warnings and security changes are worth a mail), and a change of
-- email address, which counts only once the new address is confirmed: the link's token carries
-- the new address until then.
ALTER TABLE accounts
  ADD COLUMN notify_email boolean NOT NULL DEFAULT true,
  ADD COLUMN notify_push boolean NOT NULL DEFAULT false;

ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_kind_check;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_kind_check
  CHECK (kind IN ('password_reset', 'email_verify', 'mfa_challenge', 'email_change'));
ALTER TABLE account_tokens ADD COLUMN new_email text;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_new_email_check CHECK ((kind = 'email_change') = (new_email IS NOT NULL));
