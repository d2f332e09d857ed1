-- The project database (issue 12). Each project gets its own schema and two roles, made on its
-- first database call (server/src/modules/database/provisioning.ts):
--   hb_<id>_owner  owns the schema and its tables; the developer's calls (console, SQL box) run as it;
--   hb_<id>_app    the apps' calls run as it; it gets grants and row-level security policies per
--                  table from the table's access rule, and nothing else.
-- Every call runs in a transaction that first sets hostbase.uid (the end user), the statement
-- timeout and the search_path as the platform, then SET LOCAL ROLE to the project's role.
CREATE TABLE project_databases (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  schema_name text NOT NULL UNIQUE,
  owner_role text NOT NULL UNIQUE,
  app_role text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Per table: the app access rule (the policies in the project's schema follow it) and the last change.
CREATE TABLE project_db_tables (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  table_name text NOT NULL,
  access text NOT NULL DEFAULT 'none' CHECK (access IN ('none', 'read', 'signed_in', 'owner')),
  last_modified timestamptz,
  PRIMARY KEY (project_id, table_name)
);

-- A project's role must never leave itself. SET ROLE is checked against the *session* user (the
-- platform's), so a tenant able to call set_config('role', ...) inside a query (the SQL box runs the
-- developer's SELECT; query_to_xml() runs SQL text) would become the platform. Nobody but the
-- platform may call set_config; nor change settings through pg_settings, signal the live-changes
-- channel (spoofed events for another project), or hold session advisory locks on a pooled
-- connection after its transaction (the platform's migration lock). Granted back to the platform.
REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC;
REVOKE UPDATE ON pg_catalog.pg_settings FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_notify(text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_advisory_lock(bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_advisory_lock(integer, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_advisory_lock_shared(bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_advisory_lock_shared(integer, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_try_advisory_lock(bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_try_advisory_lock(integer, integer) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_try_advisory_lock_shared(bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION pg_catalog.pg_try_advisory_lock_shared(integer, integer) FROM PUBLIC;
DO $$ BEGIN
  EXECUTE format('GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean), pg_catalog.pg_notify(text, text), pg_catalog.pg_advisory_lock(bigint) TO %I', current_user);
END $$;

-- Trigger functions the project tables' triggers call. They run as the platform (SECURITY
-- DEFINER, search_path pinned) because the project roles may neither notify nor write platform
-- tables; as trigger functions they can't be called from a query.
CREATE SCHEMA hostbase_internal;
GRANT USAGE ON SCHEMA hostbase_internal TO PUBLIC;

-- Row trigger: one notification per changed row on channel hostbase_db_changes, carrying the
-- project, table, operation and primary key (TG_ARGV[1..]: the primary key columns) and, for a
-- delete, owner_id. Subscribers re-read the row under their own role (modules/database/changes.ts).
CREATE FUNCTION hostbase_internal.notify_change() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $$
DECLARE
  r jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  pk jsonb := '{}'::jsonb;
  i int;
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    pk := pk || jsonb_build_object(TG_ARGV[i], r -> TG_ARGV[i]);
  END LOOP;
  PERFORM pg_notify('hostbase_db_changes', jsonb_build_object(
    'project', TG_ARGV[0], 'table', TG_TABLE_NAME, 'op', TG_OP, 'pk', pk,
    'owner_id', CASE WHEN TG_OP = 'DELETE' THEN r -> 'owner_id' END)::text);
  RETURN NULL;
END $$;

-- Statement trigger: the table's last modification, for the console, to the second. The record
-- is one row per table: written by every write it would make concurrent writers of a table wait
-- on its lock in turn. So it is written at most about once a second, and never waited for (a
-- writer that finds it locked leaves it to the one holding it).
CREATE FUNCTION hostbase_internal.touch_table() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
  UPDATE public.project_db_tables SET last_modified = now()
   WHERE (project_id, table_name) IN (
     SELECT project_id, table_name FROM public.project_db_tables
      WHERE project_id = TG_ARGV[0]::uuid AND table_name = TG_TABLE_NAME
        AND (last_modified IS NULL OR last_modified < now() - interval '1 second')
      FOR UPDATE SKIP LOCKED);
  RETURN NULL;
END $$;
