-- Notices for what file listings keep in memory (server/src/modules/storage/storage.service.ts),
-- on the lookups' channel (migrations/0011): 'files:<project id>' when a project's files change,
-- 'storage:<account id>' when the bytes an account stores change (its files, its deployments'
-- stored_bytes, a project of its going). Sent by triggers in the changing transaction, so every
-- instance hears of a change, whatever statement made it, when (and only when) it commits.
CREATE FUNCTION hostbase_internal.notify_storage() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
  owner uuid;
BEGIN
  -- TG_ARGV[0] = 'files': the project's pages of files change too. An UPDATE names the old and
  -- the new project (the same one in practice). PostgreSQL sends one notice for equal payloads
  -- of one transaction.
  IF TG_OP <> 'INSERT' THEN
    IF TG_ARGV[0] = 'files' THEN PERFORM pg_notify('hostbase_lookups', 'files:' || OLD.project_id); END IF;
    SELECT p.owner_id INTO owner FROM public.projects p WHERE p.id = OLD.project_id;
    -- A project being deleted is gone already: its own trigger below names its owner.
    IF owner IS NOT NULL THEN PERFORM pg_notify('hostbase_lookups', 'storage:' || owner); END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_ARGV[0] = 'files' THEN PERFORM pg_notify('hostbase_lookups', 'files:' || NEW.project_id); END IF;
    SELECT p.owner_id INTO owner FROM public.projects p WHERE p.id = NEW.project_id;
    IF owner IS NOT NULL THEN PERFORM pg_notify('hostbase_lookups', 'storage:' || owner); END IF;
  END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION hostbase_internal.notify_storage() FROM PUBLIC;

CREATE FUNCTION hostbase_internal.notify_project_storage() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
  PERFORM pg_notify('hostbase_lookups', 'storage:' || OLD.owner_id);
  IF TG_OP = 'UPDATE' THEN PERFORM pg_notify('hostbase_lookups', 'storage:' || NEW.owner_id); END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION hostbase_internal.notify_project_storage() FROM PUBLIC;

CREATE TRIGGER storage_objects_notice AFTER INSERT OR UPDATE OR DELETE ON storage_objects
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_storage('files');
-- Deployments: only their stored bytes count (not a build's heartbeat or log).
CREATE TRIGGER site_deployments_notice_insert AFTER INSERT ON site_deployments
  FOR EACH ROW WHEN (NEW.stored_bytes <> 0) EXECUTE FUNCTION hostbase_internal.notify_storage('bytes');
CREATE TRIGGER site_deployments_notice_update AFTER UPDATE ON site_deployments
  FOR EACH ROW WHEN (OLD.stored_bytes IS DISTINCT FROM NEW.stored_bytes OR OLD.project_id IS DISTINCT FROM NEW.project_id)
  EXECUTE FUNCTION hostbase_internal.notify_storage('bytes');
CREATE TRIGGER site_deployments_notice_delete AFTER DELETE ON site_deployments
  FOR EACH ROW WHEN (OLD.stored_bytes <> 0) EXECUTE FUNCTION hostbase_internal.notify_storage('bytes');
CREATE TRIGGER projects_storage_notice AFTER DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_project_storage();
CREATE TRIGGER projects_owner_storage_notice AFTER UPDATE OF owner_id ON projects
  FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id) EXECUTE FUNCTION hostbase_internal.notify_project_storage();
