-- One build from source per site at a time, kept by the database: two uploads of the same site at
-- the same instant both passed the service's check before either wrote its framework; now the
-- second write is refused (23505) and that upload answers 409 (hosting.service.ts).
-- Any duplicates already there are settled first, the newest kept: the older ones fail with why
-- (their bytes released as any failed deployment's), so this index can be created on any database.
UPDATE site_deployments d
   SET status = 'failed', stored_bytes = 0, finished_at = now(),
       error = 'Stopped: a newer build of this site was running at the same time (one build per site at a time).',
       build_log = d.build_log || '[' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '] Failed: Stopped: a newer build of this site was running at the same time (one build per site at a time).' || E'\n'
 WHERE d.status = 'building' AND d.framework IS NOT NULL
   AND EXISTS (SELECT 1 FROM site_deployments n
                WHERE n.project_id = d.project_id AND n.status = 'building' AND n.framework IS NOT NULL
                  AND (n.created_at > d.created_at OR (n.created_at = d.created_at AND n.id > d.id)));

CREATE UNIQUE INDEX site_deployments_one_build_key ON site_deployments (project_id) WHERE status = 'building' AND framework IS NOT NULL;

-- When a build from source took a build slot (null while it waits for one): builds running count
-- against their account's BUILD_PER_ACCOUNT across instances and order whose queued build is
-- claimed next (source-builds.ts); builds waiting for a slot on their instance do not, so two
-- instances never hold each other's waiting builds back.
ALTER TABLE site_deployments ADD COLUMN build_started_at timestamptz;
UPDATE site_deployments SET build_started_at = coalesce(heartbeat_at, created_at) WHERE status = 'building' AND builder IS NOT NULL AND framework IS NOT NULL;
