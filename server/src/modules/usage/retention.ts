// How long the usage records keep their detail. Minutes matter only for Requests/sec (the last five)
// and hours for the week's chart: a project's minutes older than 8 days are folded into their hour
// (one row instead of sixty, the sums unchanged), and anything older than 400 days is dropped (the
// widest range is 3 months; a year is kept for comparisons). Any instance may run it at any time:
// the fold deletes and re-adds in one statement, so two instances folding at once add nothing twice.
// The statements are the usage tables' door's (usage.repository.ts).
import type { Database } from '../../db/client';
import { RETENTION_SQL } from './usage.repository';

export async function applyRetention(database: Pick<Database, 'query'>): Promise<void> {
  for (const sql of RETENTION_SQL) await database.query(sql);
}
