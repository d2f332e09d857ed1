// The door of quota_notices: the notices sent, one row per account, limit, period, percent and
// plan; the insert that finds the row already there is the notice some instance already sent.
import type { Db } from '../../db/client';
import { quotaNotices } from './plans.tables';

/** Records the notice; false when it was recorded before (by this instance or another). */
export async function recordNotice(db: Db, notice: { accountId: string; limitName: string; period: string; percent: number; plan: string }): Promise<boolean> {
  const rows = await db.insert(quotaNotices).values(notice).onConflictDoNothing().returning({ percent: quotaNotices.percent });
  return rows.length > 0;
}
