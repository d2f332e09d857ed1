// The sites' saved traffic (site_traffic) summed over several projects: the bandwidth the plan's
// limit counts (registered in the usage registry) and the usage report's series. A project's own
// rows are read and written by hosting.repository.ts.
import { and, gte, inArray, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client';
import { siteTraffic } from './hosting.tables';

/** Bytes in and out of these projects' sites since `since` (the gateway's saved hourly counts). */
export async function bandwidthBytes(q: Db, projectIds: string[], since: Date): Promise<number> {
  const [row] = await q
    .select({ bytes: sql<string>`coalesce(sum(${siteTraffic.bytesIn} + ${siteTraffic.bytesOut}), 0)` })
    .from(siteTraffic)
    .where(and(inArray(siteTraffic.projectId, projectIds), gte(siteTraffic.hour, since)));
  return Number(row?.bytes ?? 0);
}

/** These projects' bytes in and out per bucket ('hour' or 'day', UTC) since `since`: bucket start (ms) → bytes. */
export async function bandwidthByBucket(database: Database, projectIds: string[], bucket: 'hour' | 'day', since: Date): Promise<{ start: number; bytes: number }[]> {
  if (!projectIds.length) return [];
  const rows = await database.query<{ t: number; bytes: number }>(
    `SELECT (extract(epoch FROM date_trunc($2, hour, 'UTC')) * 1000)::float8 AS t, sum(bytes_in + bytes_out)::float8 AS bytes
       FROM site_traffic WHERE project_id = ANY($1::uuid[]) AND hour >= $3 GROUP BY 1`,
    [projectIds, bucket, since.toISOString()],
  );
  return rows.map((r) => ({ start: Number(r.t), bytes: Number(r.bytes) }));
}
