-- Builds from source (hosting/builds/): what a build detected, the command that starts what it
-- built, and the owner's per-site overrides of the detection. The build log grows while the build
-- runs (any instance streams it from here); it is capped by the builder, never rewritten.
ALTER TABLE site_deployments ADD COLUMN framework text;
-- Node, PHP and Flask deployments built from source: the argv started inside the sandbox at /app
-- (null: started from entry as before).
ALTER TABLE site_deployments ADD COLUMN command jsonb;
-- What a built deployment turned out to be (static, node, php, flask): a Next.js upload may be a
-- static export or a Node server. Null: decided by the type, as for every upload before builds.
ALTER TABLE site_deployments ADD COLUMN runtime text;

CREATE TABLE site_build_settings (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  root_directory text,
  install_command text,
  build_command text,
  start_command text,
  output_directory text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
