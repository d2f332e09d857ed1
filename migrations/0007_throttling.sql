-- Throttling that nobody can use to lock an owner out (OWASP brute-force guidance, NIST SP 800-63B
-- 5.2.2). Failure counters live in rate_limits (0001): a "backoff" row's window_start is the time
-- of its last counted event, so the housekeeping that drops rows a day old drops those too.

-- Device tokens: an opaque random value handed to a client after a successful sign-in and stored
-- here as SHA-256. A client that presents one for the account is exempt from the account-wide
-- failure ceiling (its own failures are counted per device instead).
CREATE TABLE account_devices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX account_devices_hash_key ON account_devices (token_hash);
CREATE INDEX account_devices_account_idx ON account_devices (account_id, last_used_at DESC);

CREATE TABLE end_user_devices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES end_users (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX end_user_devices_hash_key ON end_user_devices (token_hash);
CREATE INDEX end_user_devices_user_idx ON end_user_devices (user_id, last_used_at DESC);

-- An MFA challenge takes a few wrong codes and is then used up (the user signs in again); a call
-- without its mfa_token may only complete a challenge opened from the same client address.
ALTER TABLE account_tokens ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE account_tokens ADD COLUMN client_address text;

-- Per project: refuse the most common passwords and ones containing the user's e-mail (default on).
ALTER TABLE auth_settings ADD COLUMN block_common_passwords boolean NOT NULL DEFAULT true;
