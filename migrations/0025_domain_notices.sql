-- Notices for the custom domains every instance keeps in memory (domains.service.ts: where a Host
-- goes, and its TLS context), on the lookups' channel (migrations/0011): 'domain:<hostname>' when
-- a claim of the name is added, verified, given a certificate or removed (a project's deletion
-- removes its claims, so it is told too). Sent in the changing transaction: every instance drops
-- its copy when, and only when, the change commits. Lease and retry bookkeeping tell nobody.
CREATE FUNCTION hostbase_internal.notify_domain() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('hostbase_lookups', 'domain:' || OLD.hostname); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('hostbase_lookups', 'domain:' || NEW.hostname); END IF;
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION hostbase_internal.notify_domain() FROM PUBLIC;

CREATE TRIGGER site_domains_notice AFTER INSERT OR DELETE ON site_domains
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_domain();
CREATE TRIGGER site_domains_notice_update AFTER UPDATE ON site_domains
  FOR EACH ROW WHEN (OLD.hostname IS DISTINCT FROM NEW.hostname OR OLD.verified_at IS DISTINCT FROM NEW.verified_at
                     OR OLD.cert_pem IS DISTINCT FROM NEW.cert_pem OR OLD.key_sealed IS DISTINCT FROM NEW.key_sealed
                     OR OLD.project_id IS DISTINCT FROM NEW.project_id)
  EXECUTE FUNCTION hostbase_internal.notify_domain();
