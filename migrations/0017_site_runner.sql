-- Several API instances on one database (issue 17).
--
-- Hosted sites' runtime logs (stdout and stderr of their processes) live here, not in the memory
-- of the instance that ran them, so every instance answers GET .../logs alike. One row per
-- deployment, trimmed to its last 64 KiB on every append (server/src/modules/hosting/runtime-logs.ts);
-- deployments per project are bounded (HOSTING_KEEP_DEPLOYMENTS) and take their log with them.
CREATE TABLE site_runtime_logs (
  deployment_id uuid PRIMARY KEY REFERENCES site_deployments(id) ON DELETE CASCADE,
  log text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The one instance that runs dynamic sites when several share the database (SITE_RUNNER=lease):
-- a single row, claimed when free or expired and renewed by its holder; every other instance's
-- gateway proxies site requests to the holder's url (server/src/modules/hosting/runtime.leased.ts).
CREATE TABLE site_runner_lease (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  instance_id text NOT NULL,
  url text NOT NULL,
  expires_at timestamptz NOT NULL
);
