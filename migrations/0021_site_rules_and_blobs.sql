-- Static deployments' _redirects and _headers, parsed at deploy time (site-rules.ts), and the
-- content-addressed files of manifest deployments (instant redeploys): each deployment's
-- manifest (path -> sha256) and the digests a project already has in the object store.
ALTER TABLE site_deployments ADD COLUMN rules jsonb;

CREATE TABLE site_manifests (
  deployment_id uuid PRIMARY KEY REFERENCES site_deployments(id) ON DELETE CASCADE,
  files jsonb NOT NULL
);

CREATE TABLE site_blobs (
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  digest text NOT NULL,
  size bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, digest)
);
