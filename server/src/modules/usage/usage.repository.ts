// The usage records' queries: the request counts' additive upsert, the sign-ins' daily rows, and
// the reads of the dashboards over a scope's projects (their ids resolved by the usage registry).
// The other figures (sizes, bandwidth, the month's active users) are their owners' (usage.service.ts).
import type { Database } from '../../db/client';

export interface RequestDelta {
  projectId: string;
  /** Set when the project was named by a console call's URL: counted only if this account owns it. */
  ownerId?: string;
  minute: Date;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
}

export type { UsageScope } from '../plans';

export type Bucket = 'hour' | 'day';

export interface RequestBucket {
  start: number;
  s2xx: number;
  s3xx: number;
  s4xx: number;
  s5xx: number;
}

// Grouped (one row per key, as ON CONFLICT requires) and ordered (two instances flushing the same
// keys lock them in one order: no deadlock). The join drops counts of a project deleted since, and
// of a console call that named a project its caller does not own. The one statement outside the
// usage module's own tables: the check and the insert are atomic (a project deleted meanwhile
// can't fail the flush's foreign key), and a flush is one round trip whatever its size.
const ADD_REQUESTS = `
INSERT INTO usage_requests AS u (project_id, minute, s2xx, s3xx, s4xx, s5xx)
SELECT d.project_id, d.minute, sum(d.s2), sum(d.s3), sum(d.s4), sum(d.s5)
  FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
         AS d(project_id, owner_id, minute, s2, s3, s4, s5)
  JOIN projects p ON p.id = d.project_id AND (d.owner_id = '' OR p.owner_id::text = d.owner_id)
 GROUP BY d.project_id, d.minute
 ORDER BY d.project_id, d.minute
ON CONFLICT (project_id, minute) DO UPDATE
   SET s2xx = u.s2xx + EXCLUDED.s2xx, s3xx = u.s3xx + EXCLUDED.s3xx,
       s4xx = u.s4xx + EXCLUDED.s4xx, s5xx = u.s5xx + EXCLUDED.s5xx`;

export class UsageRepository {
  constructor(private readonly database: Database) {}

  async addRequests(deltas: RequestDelta[]): Promise<void> {
    if (!deltas.length) return;
    await this.database.query(ADD_REQUESTS, [
      deltas.map((d) => d.projectId),
      deltas.map((d) => d.ownerId ?? ''),
      deltas.map((d) => d.minute.toISOString()),
      deltas.map((d) => d.s2xx),
      deltas.map((d) => d.s3xx),
      deltas.map((d) => d.s4xx),
      deltas.map((d) => d.s5xx),
    ]);
  }

  /** One row per project, user and day; a second sign-in that day adds nothing. */
  async addSignIn(projectId: string, userId: string, day: string): Promise<void> {
    await this.database.query(
      'INSERT INTO usage_active_users (project_id, day, user_id) VALUES ($1, $2::date, $3) ON CONFLICT DO NOTHING',
      [projectId, day, userId],
    );
  }

  async requestsByBucket(projectIds: string[], bucket: Bucket, since: Date): Promise<RequestBucket[]> {
    const rows = await this.database.query<{ t: number; s2: number; s3: number; s4: number; s5: number }>(
      `SELECT (extract(epoch FROM date_trunc($2, minute, 'UTC')) * 1000)::float8 AS t,
              sum(s2xx)::float8 AS s2, sum(s3xx)::float8 AS s3, sum(s4xx)::float8 AS s4, sum(s5xx)::float8 AS s5
         FROM usage_requests WHERE project_id = ANY($1::uuid[]) AND minute >= $3 GROUP BY 1`,
      [projectIds, bucket, since.toISOString()],
    );
    return rows.map((r) => ({ start: Number(r.t), s2xx: Number(r.s2), s3xx: Number(r.s3), s4xx: Number(r.s4), s5xx: Number(r.s5) }));
  }

  /** Distinct end users who signed in, per UTC day from `sinceDay` (YYYY-MM-DD). */
  async activeUsersByDay(projectIds: string[], sinceDay: string): Promise<{ day: string; users: number }[]> {
    const rows = await this.database.query<{ day: string; users: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*)::float8 AS users
         FROM usage_active_users WHERE project_id = ANY($1::uuid[]) AND day >= $2::date GROUP BY day`,
      [projectIds, sinceDay],
    );
    return rows.map((r) => ({ day: r.day, users: Number(r.users) }));
  }

  async requestsSince(projectIds: string[], since: Date): Promise<number> {
    const [row] = await this.database.query<{ n: number }>(
      `SELECT coalesce(sum(s2xx + s3xx + s4xx + s5xx), 0)::float8 AS n FROM usage_requests WHERE project_id = ANY($1::uuid[]) AND minute >= $2`,
      [projectIds, since.toISOString()],
    );
    return Number(row?.n ?? 0);
  }
}

// The retention's statements (retention.ts says what they keep and why).
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
