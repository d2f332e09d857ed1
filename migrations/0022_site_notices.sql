-- Notices for the live sites every instance keeps in memory (hosting.service.ts liveSite), on the
-- lookups' channel (migrations/0011): 'site:<project id>' when what a subdomain serves changes (the
-- live deployment switched, the site unpublished or deleted, its environment changed, the live
-- deployment's row changed or gone). Sent in the changing transaction, so every instance drops its
-- copy when, and only when, the change commits; a deploy answered on one instance is what every
-- instance serves (the writer waits for them with the lookups' barrier).
CREATE FUNCTION hostbase_internal.notify_site() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('hostbase_lookups', 'site:' || OLD.project_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('hostbase_lookups', 'site:' || NEW.project_id); END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION hostbase_internal.notify_site() FROM PUBLIC;

CREATE TRIGGER sites_live_notice AFTER INSERT OR UPDATE OR DELETE ON sites
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_site();
-- Deployments: not a build's heartbeat or log lines, only what a served site reads.
CREATE TRIGGER site_deployments_live_notice AFTER UPDATE ON site_deployments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.root IS DISTINCT FROM NEW.root
                     OR OLD.entry IS DISTINCT FROM NEW.entry OR OLD.type IS DISTINCT FROM NEW.type)
  EXECUTE FUNCTION hostbase_internal.notify_site();
CREATE TRIGGER site_deployments_live_notice_delete AFTER DELETE ON site_deployments
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_site();
