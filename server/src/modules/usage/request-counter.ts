// API requests per project per minute by status class, counted in memory on the request path and
// added to the database every few seconds (and on close) as one additive upsert, so a request
// never waits on a write and several instances behind a load balancer add up.
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../../platform/clock';
import type { RequestDelta, UsageRepository } from './usage.repository';

const MINUTE = 60_000;
/** Distinct (project, caller, minute) entries held before a flush is started early. */
const MAX_PENDING = 5000;

export type StatusClass = 's2xx' | 's3xx' | 's4xx' | 's5xx';

export function statusClass(status: number): StatusClass | undefined {
  if (status >= 200 && status < 300) return 's2xx';
  if (status >= 300 && status < 400) return 's3xx';
  if (status >= 400 && status < 500) return 's4xx';
  if (status >= 500 && status < 600) return 's5xx';
  return undefined;
}

export class RequestCounter {
  private pending = new Map<string, RequestDelta>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  /** An early flush is queued: a flood of calls queues one, not one per call. */
  private early = false;

  constructor(
    private readonly repo: Pick<UsageRepository, 'addRequests'>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    flushEveryMs = 5000,
    private readonly clock: Clock = systemClock,
  ) {
    if (flushEveryMs > 0) {
      this.timer = setInterval(() => void this.flush(), flushEveryMs);
      this.timer.unref();
    }
  }

  /**
   * One answered request of `projectId`. `ownerId`: the project came from the URL of a console
   * call, not from a verified key, so the count is kept only if that account owns the project
   * (checked when flushed: no lookup on the request path).
   */
  record(projectId: string, status: number, ownerId?: string): void {
    const cls = statusClass(status);
    if (!cls) return;
    const minute = Math.floor(this.clock.now().getTime() / MINUTE) * MINUTE;
    const key = `${projectId}|${ownerId ?? ''}|${minute}`;
    let d = this.pending.get(key);
    if (!d) this.pending.set(key, (d = { projectId, ownerId, minute: new Date(minute), s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 0 }));
    d[cls] += 1;
    if (this.pending.size >= MAX_PENDING && !this.early) {
      this.early = true;
      void this.flush().finally(() => (this.early = false));
    }
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.repo.addRequests(batch);
      } catch (err) {
        this.log.warn({ err, rows: batch.length }, 'could not save API request counts; dropped this batch');
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
