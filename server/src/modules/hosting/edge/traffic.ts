// The gateway's counters: requests, bytes in and out per project per hour, and error responses by
// (status, path). Counted in memory on the hot path and flushed as one upsert per table every few
// seconds, so serving a file never waits on the database.
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../../../platform/clock';
import type { ErrorDelta, HostingRepository, TrafficDelta } from '../hosting.repository';

const HOUR = 3600_000;

export class TrafficCounter {
  private traffic = new Map<string, TrafficDelta>();
  private errors = new Map<string, ErrorDelta>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  /** Told after each save which projects' counts it held (the bandwidth limit, bandwidth.ts). */
  afterFlush?: (projectIds: string[]) => Promise<void>;

  constructor(private readonly repo: HostingRepository, private readonly log: FastifyBaseLogger, flushEveryMs = 5000, private readonly clock: Clock = systemClock) {
    if (flushEveryMs > 0) {
      this.timer = setInterval(() => void this.flush(), flushEveryMs);
      this.timer.unref();
    }
  }

  record(projectId: string, status: number, path: string, bytesIn: number, bytesOut: number, now = this.clock.now().getTime()): void {
    const hour = Math.floor(now / HOUR) * HOUR;
    const key = `${projectId}|${hour}`;
    let t = this.traffic.get(key);
    if (!t) this.traffic.set(key, (t = { projectId, hour: new Date(hour), requests: 0, bytesIn: 0, bytesOut: 0 }));
    t.requests += 1;
    t.bytesIn += bytesIn;
    t.bytesOut += bytesOut;
    if (status >= 400) {
      const p = path.split('?')[0].slice(0, 200);
      const ek = `${projectId}|${status}|${p}`;
      let e = this.errors.get(ek);
      if (!e) this.errors.set(ek, (e = { projectId, status, path: p, count: 0, lastSeen: new Date(now) }));
      e.count += 1;
      e.lastSeen = new Date(now);
    }
  }

  /** Bytes counted but not yet written, so live numbers include the last few seconds. */
  pending(projectId: string): { bytesIn: number; bytesOut: number } {
    let bytesIn = 0;
    let bytesOut = 0;
    for (const t of this.traffic.values()) {
      if (t.projectId === projectId) {
        bytesIn += t.bytesIn;
        bytesOut += t.bytesOut;
      }
    }
    return { bytesIn, bytesOut };
  }

  /** Drops a deleted project's unsaved counts (their rows would violate the foreign key). */
  forget(projectId: string): void {
    for (const [k, t] of this.traffic) if (t.projectId === projectId) this.traffic.delete(k);
    for (const [k, e] of this.errors) if (e.projectId === projectId) this.errors.delete(k);
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.traffic.size === 0 && this.errors.size === 0) return void (await this.afterFlush?.([]));
      const traffic = [...this.traffic.values()];
      const errors = [...this.errors.values()];
      this.traffic = new Map();
      this.errors = new Map();
      try {
        await this.repo.addTraffic(traffic, errors);
      } catch (err) {
        this.log.warn({ err }, 'could not save site traffic counts; dropped this batch');
      }
      await this.afterFlush?.([...new Set(traffic.map((t) => t.projectId))]);
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}

export function severityOf(status: number): 'low' | 'medium' | 'high' {
  if (status >= 500) return 'high';
  if (status === 404 || status === 405) return 'low';
  return 'medium';
}
