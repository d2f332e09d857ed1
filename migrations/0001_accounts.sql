-- Developer accounts, their one-time tokens (reset, verify, MFA challenge), MFA recovery codes,
-- and the shared rate-limit counters (shared so that several API instances enforce one limit).
CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  email_normalized text NOT NULL,
  password_hash text NOT NULL,
  email_verified_at timestamptz,
  -- Bumped on password change/reset: every token carrying an older version is refused.
  token_version integer NOT NULL DEFAULT 0,
  mfa_enabled boolean NOT NULL DEFAULT false,
  mfa_secret_enc text,
  mfa_pending_secret_enc text,
  -- The last TOTP time step accepted: a code is accepted once.
  mfa_last_step bigint,
  plan text NOT NULL DEFAULT 'hobby' CHECK (plan IN ('hobby', 'pro', 'enterprise')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_normalized_key ON accounts (email_normalized);

CREATE TABLE account_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('password_reset', 'email_verify', 'mfa_challenge')),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX account_tokens_hash_key ON account_tokens (token_hash);
CREATE INDEX account_tokens_account_idx ON account_tokens (account_id, kind);

CREATE TABLE mfa_recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mfa_recovery_codes_account_idx ON mfa_recovery_codes (account_id);

CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);

CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  message text NOT NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
