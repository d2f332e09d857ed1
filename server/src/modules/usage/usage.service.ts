// The usage report of the dashboards: series per bucket over a range, active users per day, the
// current totals and the caller's plan limits, for one project or all of an account's projects.
import type { Clock } from '../../platform/clock';
import { limitsView, planLimits } from '../plans';
import type { Reply } from '../../platform/http/types';
import type { Bucket, UsageRepository, UsageScope } from './usage.repository';
import type { UsageRegistry } from '../plans';
import type { Db } from '../../db/client';
import { monthStartOf, rangeWindow, type UsageRange } from './ranges';

export type UsageReport = Reply<'getAccountUsage'>;

/** Requests/sec is the average over this window (its last minute is still filling). */
const RATE_WINDOW_MS = 5 * 60_000;
const MINUTE = 60_000;


export interface UsageServiceDeps {
  repo: UsageRepository;
  clock: Clock;
  /** Bytes stored (files and deployments): the storage module's count (StorageRepository.storedBytes). */
  storedBytes: (scope: UsageScope) => Promise<number>;
  /** The scope's projects, and the figures their owners count (the month's active users, database bytes). */
  usage: Pick<UsageRegistry, 'projectIds' | 'count'>;
  db: Db;
  /** The sites' bytes in and out per bucket: hosting's saved traffic. */
  bandwidthByBucket: (projectIds: string[], bucket: Bucket, since: Date) => Promise<{ start: number; bytes: number }[]>;
}

export class UsageService {
  constructor(private readonly d: UsageServiceDeps) {}

  async report(scope: UsageScope, plan: string, range: UsageRange = '7d'): Promise<UsageReport> {
    const now = this.d.clock.now();
    const w = rangeWindow(range, now);
    const rateFrom = Math.floor((now.getTime() - RATE_WINDOW_MS) / MINUTE) * MINUTE + MINUTE;
    const ids = await this.d.usage.projectIds(this.d.db, scope);
    const [requests, bandwidth, daily, monthUsers, recent, storageBytes, databaseBytes] = await Promise.all([
      this.d.repo.requestsByBucket(ids, w.bucket, w.from),
      this.d.bandwidthByBucket(ids, w.bucket, w.from),
      this.d.repo.activeUsersByDay(ids, w.days[0]),
      this.d.usage.count('monthly_active_users', this.d.db, { projectIds: ids }, new Date(`${monthStartOf(now)}T00:00:00Z`)),
      this.d.repo.requestsSince(ids, new Date(rateFrom)),
      this.d.storedBytes(scope),
      this.d.usage.count('database', this.d.db, { projectIds: ids }),
    ]);

    const byStart = new Map(requests.map((r) => [r.start, r]));
    const bytesByStart = new Map(bandwidth.map((b) => [b.start, b.bytes]));
    const series = w.starts.map((start) => {
      const r = byStart.get(start);
      return {
        start: new Date(start).toISOString(),
        requests: { s2xx: r?.s2xx ?? 0, s3xx: r?.s3xx ?? 0, s4xx: r?.s4xx ?? 0, s5xx: r?.s5xx ?? 0 },
        bandwidth_bytes: bytesByStart.get(start) ?? 0,
      };
    });
    const usersByDay = new Map(daily.map((d) => [d.day, d.users]));
    const total = { s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0 };
    for (const p of series) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += p.requests[k];

    const limits = planLimits(plan);
    const rateSeconds = (now.getTime() - rateFrom) / 1000;
    return {
      range,
      bucket: w.bucket,
      from: w.from.toISOString(),
      to: now.toISOString(),
      series,
      active_users: w.days.map((day) => ({ day, users: usersByDay.get(day) ?? 0 })),
      totals: {
        requests: total,
        bandwidth_bytes: series.reduce((sum, p) => sum + p.bandwidth_bytes, 0),
        database_bytes: databaseBytes,
        storage_bytes: storageBytes,
        active_users_month: monthUsers,
        requests_per_second: rateSeconds > 0 ? Math.round((recent / rateSeconds) * 100) / 100 : 0,
      },
      // The contract's PlanUsageLimits picks its fields of the plan's limits.
      limits: { plan, label: limits.label, ...limitsView(plan) },
    };
  }
}
