-- Notices for the lookups every API instance keeps in memory (server/src/lib/lookup-cache.ts):
-- the project an app key names, the end user an access token names, the account a developer
-- token names. Any change or removal of such a row, by whatever statement (a key rotated, a
-- project deleted and its keys and users with it by cascade, a password changed, a user removed),
-- notifies channel hostbase_lookups in the same transaction, so PostgreSQL delivers the notice to
-- every instance when, and only when, the change commits. Inserts need none: a lookup that found
-- nothing is never remembered.
CREATE FUNCTION hostbase_internal.notify_lookup() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
  -- TG_ARGV[0]: the kind of lookup; OLD's id column (TG_ARGV[1]) names the entry. PostgreSQL
  -- sends one notice for equal payloads of one transaction.
  PERFORM pg_notify('hostbase_lookups', TG_ARGV[0] || ':' || (to_jsonb(OLD) ->> TG_ARGV[1]));
  RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION hostbase_internal.notify_lookup() FROM PUBLIC;

CREATE TRIGGER projects_lookup AFTER UPDATE OR DELETE ON projects
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_lookup('project', 'id');
CREATE TRIGGER project_keys_lookup AFTER UPDATE OR DELETE ON project_keys
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_lookup('project', 'project_id');
CREATE TRIGGER end_users_lookup AFTER UPDATE OR DELETE ON end_users
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_lookup('end_user', 'id');
CREATE TRIGGER accounts_lookup AFTER UPDATE OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_lookup('account', 'id');
