// The two triggers every project table carries (functions in migrations/0010): one notification
// per changed row for live changes (modules/database/changes.ts), and the table's last
// modification for the console. Made again whenever the primary key's columns may have changed
// (their names are the row trigger's arguments).
import type { TxClient } from '../../db/client';
import { quoteIdent, quoteLiteral } from './identifiers';

export async function attachTriggers(tx: TxClient, projectId: string, table: string, primaryKey: string[]): Promise<void> {
  const t = quoteIdent(table);
  const args = [projectId, ...primaryKey].map(quoteLiteral).join(', ');
  await tx.query(`DROP TRIGGER IF EXISTS hb_changes ON ${t}`);
  await tx.query(`DROP TRIGGER IF EXISTS hb_touch ON ${t}`);
  await tx.query(`CREATE TRIGGER hb_changes AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION hostbase_internal.notify_change(${args})`);
  await tx.query(`CREATE TRIGGER hb_touch AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${t} FOR EACH STATEMENT EXECUTE FUNCTION hostbase_internal.touch_table(${quoteLiteral(projectId)})`);
}

export const NOTIFY_CHANNEL = 'hostbase_db_changes';

/** What the row trigger sends (payload of NOTIFY_CHANNEL). */
export interface ChangeNotice {
  project: string;
  table: string;
  op: 'INSERT' | 'UPDATE' | 'DELETE';
  pk: Record<string, unknown>;
  owner_id: string | null;
}
