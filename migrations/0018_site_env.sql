-- A site's own environment: variables and secrets the platform passes to its processes (and its
-- builds). A secret's value is sealed (AES-256-GCM, lib/crypto.ts) and never returned by the API.
-- sites.env_version goes up with every change: each instance compares it with the version its
-- running process was started with, and restarts the process when it is older.
CREATE TABLE site_env (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name text NOT NULL,
  value text NOT NULL,
  secret boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, name)
);

ALTER TABLE sites ADD COLUMN env_version integer NOT NULL DEFAULT 0;
