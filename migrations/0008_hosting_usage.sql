-- Hosting on the bill, and builds that survive a crash.
--
-- stored_bytes: what a deployment holds in storage (its archive object plus its extracted files),
-- counted in the owner's storage usage beside storage_objects.object_size. A deploy reserves it
-- (set while the build is still 'building', in the same locked transaction as the quota check
-- uploads use); a failed, interrupted or pruned deployment gives it back (0, or its row deleted).
--
-- builder / heartbeat_at: which instance is building a 'building' deployment, and when it last
-- said so. A build whose builder restarted, or whose heartbeat is older than the lease, is dead
-- and is marked failed ("interrupted by a restart"); see hosting/build-lifecycle.ts.
ALTER TABLE site_deployments
  ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0),
  ADD COLUMN builder text,
  ADD COLUMN heartbeat_at timestamptz;

-- Deployments made before this migration: their extracted bytes are known, their archive's size is
-- not (it is in the object store); the extracted size is the nearer figure than nothing.
UPDATE site_deployments SET stored_bytes = size_bytes WHERE status = 'live';

-- The start-up and lease sweeps look only at builds in flight.
CREATE INDEX site_deployments_building_idx ON site_deployments (heartbeat_at) WHERE status = 'building';
