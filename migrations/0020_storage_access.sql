-- File access rules and signed links (issue 14).
--
-- Each stored file now has a folder ("" is the bucket's root) and, when an end user uploaded it
-- with an app key, that end user as its owner (the `owner` rule). A removed end user's files stay,
-- owned by nobody (only the secret key and the console reach them then).
ALTER TABLE storage_objects ADD COLUMN folder text NOT NULL DEFAULT '';
ALTER TABLE storage_objects ADD COLUMN owner_id uuid REFERENCES end_users (id) ON DELETE SET NULL;
CREATE INDEX storage_objects_owner_idx ON storage_objects (owner_id) WHERE owner_id IS NOT NULL;

-- Who may use a folder's files with the publishable key; the rule of the nearest folder at or
-- above a file's decides, and no rule at all means no app access. Read from the database on every
-- app call, so a change is in force on every instance at once.
CREATE TABLE storage_rules (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  folder text NOT NULL,
  access text NOT NULL CHECK (access IN ('none', 'read', 'signed_in', 'owner')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, folder)
);

-- Links that serve one file without a key until they expire or are revoked. Only a hash of the
-- link's secret is stored; the state lives here so every instance agrees at once. A link goes
-- with its file.
CREATE TABLE storage_signed_links (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  object_id uuid NOT NULL REFERENCES storage_objects (object_id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  created_by uuid REFERENCES end_users (id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  download_count bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX storage_signed_links_token_key ON storage_signed_links (token_hash);
CREATE INDEX storage_signed_links_project_idx ON storage_signed_links (project_id, created_at DESC);
CREATE INDEX storage_signed_links_object_idx ON storage_signed_links (object_id);
