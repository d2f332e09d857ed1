-- Projects and their API keys. A subdomain is unique by the index (stored lower-case), so two
-- concurrent creates can't both win. Keys are stored as a SHA-256 hash (for lookup) and sealed
-- with AES-GCM (so the console can show them again); one active key per kind.
CREATE TABLE projects (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text,
  subdomain text NOT NULL CHECK (subdomain = lower(subdomain)),
  bucket_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX projects_subdomain_key ON projects (subdomain);
CREATE UNIQUE INDEX projects_bucket_id_key ON projects (bucket_id);
CREATE INDEX projects_owner_idx ON projects (owner_id, created_at DESC);

CREATE TABLE project_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('bucket', 'authentication')),
  key_hash text NOT NULL,
  key_enc text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE UNIQUE INDEX project_keys_hash_key ON project_keys (key_hash);
CREATE UNIQUE INDEX project_keys_active_key ON project_keys (project_id, kind) WHERE revoked_at IS NULL;
