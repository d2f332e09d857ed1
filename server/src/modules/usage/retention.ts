// How long the usage records keep their detail. Minutes matter only for Requests/sec (the last five)
// and hours for the week's chart: a project's minutes older than 8 days are folded into their hour
// (one row instead of sixty, the sums unchanged), and anything older than 400 days is dropped (the
// widest range is 3 months; a year is kept for comparisons). Any instance may run it at any time:
// the fold deletes and re-adds in one statement, so two instances folding at once add nothing twice.
import type { Database } from '../../db/client';

export const FOLD_MINUTES_SQL = `
WITH folded AS (
  DELETE FROM usage_requests
   WHERE minute < now() - interval '8 days' AND minute <> date_trunc('hour', minute, 'UTC')
  RETURNING project_id, minute, s2xx, s3xx, s4xx, s5xx
)
INSERT INTO usage_requests AS u (project_id, minute, s2xx, s3xx, s4xx, s5xx)
SELECT project_id, date_trunc('hour', minute, 'UTC'), sum(s2xx), sum(s3xx), sum(s4xx), sum(s5xx)
  FROM folded GROUP BY 1, 2 ORDER BY 1, 2
ON CONFLICT (project_id, minute) DO UPDATE
   SET s2xx = u.s2xx + EXCLUDED.s2xx, s3xx = u.s3xx + EXCLUDED.s3xx,
       s4xx = u.s4xx + EXCLUDED.s4xx, s5xx = u.s5xx + EXCLUDED.s5xx`;

export const RETENTION_SQL = [
  FOLD_MINUTES_SQL,
  `DELETE FROM usage_requests WHERE minute < now() - interval '400 days'`,
  `DELETE FROM usage_active_users WHERE day < (now() - interval '400 days')::date`,
];

export async function applyRetention(database: Pick<Database, 'query'>): Promise<void> {
  for (const sql of RETENTION_SQL) await database.query(sql);
}
