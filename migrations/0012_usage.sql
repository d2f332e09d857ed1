-- What the platform measures of each project for the dashboards (server/src/modules/usage).
--
-- usage_requests: API calls per project per minute by the class of their answer's status. Each
-- instance counts in memory and adds its counts every few seconds with one additive upsert
-- (n = n + EXCLUDED.n), so any number of instances add up; never a write per request.
CREATE TABLE usage_requests (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  minute timestamptz NOT NULL,
  s2xx bigint NOT NULL DEFAULT 0 CHECK (s2xx >= 0),
  s3xx bigint NOT NULL DEFAULT 0 CHECK (s3xx >= 0),
  s4xx bigint NOT NULL DEFAULT 0 CHECK (s4xx >= 0),
  s5xx bigint NOT NULL DEFAULT 0 CHECK (s5xx >= 0),
  PRIMARY KEY (project_id, minute)
);

-- usage_active_users: end users who signed in (sign-up, sign-in, refresh), one row per project,
-- user and UTC day; monthly active users are the distinct users of the month's rows. No foreign
-- key to end_users: a user deleted later was still active that day.
CREATE TABLE usage_active_users (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  day date NOT NULL,
  user_id uuid NOT NULL,
  PRIMARY KEY (project_id, day, user_id)
);
