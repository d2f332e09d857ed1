-- The API instances that are up, each seen every few seconds (server/src/lib/lookup-cache.ts): an
-- instance that changed a row others keep in memory waits until each of them confirms it heard
-- the notice, so the change is in force everywhere before the caller hears it is done.
CREATE TABLE platform_instances (
  id text PRIMARY KEY,
  started_at timestamptz NOT NULL DEFAULT now(),
  seen_at timestamptz NOT NULL DEFAULT now()
);
