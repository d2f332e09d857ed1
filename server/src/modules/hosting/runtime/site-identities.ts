// The host identity (uid = gid) a project's site processes run as: one per project, allocated once
// from a database sequence so that every instance agrees and no two projects share one. The table
// (siteIdentities) is with hosting's other tables (hosting.tables.ts).
import type { Database } from '../../../db/client';

export type SiteUidOf = (projectId: string) => Promise<number>;

export function siteUidsFrom(database: Database): SiteUidOf {
  return async (projectId) => {
    // The no-op update makes RETURNING answer for a row that already exists.
    const rows = await database.query<{ uid: number }>(
      `INSERT INTO site_identities (project_id) VALUES ($1)
       ON CONFLICT (project_id) DO UPDATE SET project_id = EXCLUDED.project_id
       RETURNING uid`,
      [projectId],
    );
    return Number(rows[0].uid);
  };
}
