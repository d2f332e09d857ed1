-- End users of the developers' apps (one set per project), their refresh tokens, their one-time
-- tokens (password reset, email verification) and the project's auth settings. Everything hangs
-- off projects with ON DELETE CASCADE: deleting a project deletes its end users and sessions.
CREATE TABLE auth_settings (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  -- Exact origins (scheme://host[:port]) allowed to call /api/auth/v1 from a browser; empty = none.
  allowed_origins text[] NOT NULL DEFAULT '{}',
  -- Base of the links in reset and verification mails; null = the platform's own page.
  site_url text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- CORS preflights ask "does any project list this origin?".
CREATE INDEX auth_settings_origins_idx ON auth_settings USING gin (allowed_origins);

CREATE TABLE end_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  email text NOT NULL,
  email_normalized text NOT NULL,
  password_hash text NOT NULL,
  email_verified_at timestamptz,
  -- Bumped on password reset: access tokens carrying an older version are refused.
  token_version integer NOT NULL DEFAULT 0,
  last_login timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One email per project; the same email may exist in another project.
CREATE UNIQUE INDEX end_users_project_email_key ON end_users (project_id, email_normalized);
CREATE INDEX end_users_project_created_idx ON end_users (project_id, created_at DESC, id DESC);

-- Refresh tokens are random and stored as SHA-256. Each use rotates the token (rotated_at set,
-- a successor inserted in the same family); presenting a rotated token again revokes the family.
CREATE TABLE end_user_refresh_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES end_users (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  family_id uuid NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX end_user_refresh_tokens_hash_key ON end_user_refresh_tokens (token_hash);
CREATE INDEX end_user_refresh_tokens_family_idx ON end_user_refresh_tokens (family_id);
CREATE INDEX end_user_refresh_tokens_user_idx ON end_user_refresh_tokens (user_id);

CREATE TABLE end_user_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES end_users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('password_reset', 'email_verify')),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX end_user_tokens_hash_key ON end_user_tokens (token_hash);
CREATE INDEX end_user_tokens_user_idx ON end_user_tokens (user_id, kind);
