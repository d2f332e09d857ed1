-- The account's activity log and each project's errors.
--
-- activity_log: one row per change a developer made (modules/activity/activity.classification.ts
-- says which operations change something). project_id has no foreign key on purpose: "Deleted
-- project" stays in the account's log after the project is gone. seq orders entries made within
-- the same clock tick (newest first is seq DESC).
CREATE TABLE activity_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  project_id uuid,
  operation_id text NOT NULL,
  summary text NOT NULL,
  ip text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_log_account_idx ON activity_log (account_id, seq DESC);
CREATE INDEX activity_log_project_idx ON activity_log (project_id, seq DESC) WHERE project_id IS NOT NULL;

-- project_errors: what went wrong in a project (modules/activity/project-errors.ts hears them on
-- the account events channel). Gone with the project.
CREATE TABLE project_errors (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('deploy_failed', 'runtime_crashed', 'dns_unverified', 'quota_passed')),
  severity text NOT NULL CHECK (severity IN ('low', 'medium', 'high')),
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX project_errors_project_idx ON project_errors (project_id, seq DESC);
