-- Site hosting. Each deploy is an immutable row in site_deployments; which one is served is the
-- single column sites.live_deployment_id, so going live (or rolling back) is one UPDATE and a
-- failed deploy can never leave a half-switched site. Traffic is counted by the gateway in hourly
-- buckets and by error (status, path), flushed in batches.
CREATE TABLE site_deployments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  type text NOT NULL,
  status text NOT NULL CHECK (status IN ('building', 'live', 'failed')),
  size_bytes bigint NOT NULL DEFAULT 0,
  file_count integer NOT NULL DEFAULT 0,
  root text NOT NULL DEFAULT '',
  entry text,
  error text,
  build_log text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX site_deployments_project_idx ON site_deployments (project_id, created_at DESC);

CREATE TABLE sites (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  live_deployment_id uuid REFERENCES site_deployments (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE site_traffic (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  bytes_in bigint NOT NULL DEFAULT 0,
  bytes_out bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (project_id, hour)
);

CREATE TABLE site_errors (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  status integer NOT NULL,
  path text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  last_seen timestamptz NOT NULL,
  PRIMARY KEY (project_id, status, path)
);
