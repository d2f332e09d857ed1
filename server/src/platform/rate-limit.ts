// Counters in the database, so every API instance enforces the same limit. Two kinds share the
// rate_limits table (keys never collide):
// - fixed windows (hit/check/fail): window_start is the start of the current window;
// - backoff buckets (attempt): growing waits after a number of free events, as OWASP's guidance
//   on brute force and NIST SP 800-63B 5.2.2 describe; window_start is the last counted event.
// Every count is one atomic upsert (drizzle's onConflictDoUpdate with SQL over the locked row): no
// read-then-write race between instances.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Clock } from './clock';
import { Errors } from './errors';
import { rateLimits } from './rate-limit.tables';
import { sweepOf } from './sweeps';

export interface Limit {
  /** Counter key, e.g. "login:ip:1.2.3.4". */
  key: string;
  max: number;
  windowSeconds: number;
}

/** How a backoff bucket slows its events down. */
export interface BackoffPolicy {
  /** Events counted before the first wait. */
  free: number;
  /** The first wait once `free` events are counted; each further event doubles it. */
  delaySeconds: number;
  maxDelaySeconds: number;
  /** The count is forgotten this long after its last event (a day at most: housekeeping drops older rows). */
  forgetSeconds: number;
}

export interface Backoff extends BackoffPolicy {
  key: string;
}

/** An attempt that was let through and counted in each of its buckets. */
export interface AttemptTicket {
  /** Each bucket's count including this attempt, by key. */
  counts: Record<string, number>;
  /**
   * The attempt succeeded: the buckets named in `clear` (counted by this attempt or not) start
   * from zero, the others get this attempt's count back (a success is not a failure, but must not wipe others' failures).
   */
  succeeded(clear?: string[]): Promise<void>;
  /** The attempt did not happen after all (e.g. refused later for another reason): give every count back. */
  cancel(): Promise<void>;
}

export interface RateLimiter {
  /** Counts one hit and throws 429 when the window's count passes max. */
  hit(limit: Limit): Promise<void>;
  /** Throws 429 if the window is already full, without counting (for "failed tries" limits). */
  check(limit: Limit): Promise<void>;
  /** Counts a failure for a check()-style limit. */
  fail(limit: Limit): Promise<number>;
  reset(key: string): Promise<void>;
  /**
   * Counts an attempt in every bucket up front (so parallel attempts can't slip past a limit), or
   * throws 429 with the longest wait, counting nothing, when any bucket is waiting.
   */
  attempt(buckets: Backoff[]): Promise<AttemptTicket>;
  /** Seconds until the bucket lets the next event through (0 when it does now). */
  waitSeconds(bucket: Backoff): Promise<number>;
}

/** The wait after `count` events under `p` (0 while count < free). */
export function backoffDelaySeconds(p: BackoffPolicy, count: number): number {
  if (count < p.free) return 0;
  return Math.min(p.maxDelaySeconds, p.delaySeconds * 2 ** Math.min(count - p.free, 40));
}

type Row = { count: number; windowStart: Date };

const r = rateLimits;

/** The row's window (or last event) is at least `seconds` before `now`: SQL over the row as locked by the upsert. */
function olderThan(now: string, seconds: number) {
  return sql`${r.windowStart} <= ${now}::timestamptz - make_interval(secs => ${seconds})`;
}

export function createRateLimiter(database: Database, clock: Clock): RateLimiter {
  const db = database.db;

  async function increment(limit: Limit): Promise<{ count: number; windowStart: Date }> {
    const now = clock.now();
    const iso = now.toISOString();
    const expired = olderThan(iso, limit.windowSeconds);
    const [row] = await db
      .insert(r)
      .values({ key: limit.key, windowStart: now, count: 1 })
      .onConflictDoUpdate({
        target: r.key,
        set: {
          count: sql`CASE WHEN ${expired} THEN 1 ELSE ${r.count} + 1 END`,
          windowStart: sql`CASE WHEN ${expired} THEN ${iso}::timestamptz ELSE ${r.windowStart} END`,
        },
      })
      .returning({ count: r.count, windowStart: r.windowStart });
    return { count: Number(row.count), windowStart: new Date(row.windowStart) };
  }

  function retryAfter(windowStart: Date, windowSeconds: number): number {
    return (windowStart.getTime() + windowSeconds * 1000 - clock.now().getTime()) / 1000;
  }

  /** Seconds a backoff bucket still waits, from its stored row. */
  function waitOf(b: BackoffPolicy, row: Row | undefined, now: Date): number {
    if (!row) return 0;
    const last = new Date(row.windowStart).getTime();
    if (last <= now.getTime() - b.forgetSeconds * 1000) return 0;
    const until = last + backoffDelaySeconds(b, Number(row.count)) * 1000;
    return Math.max(0, (until - now.getTime()) / 1000);
  }

  async function readRows(keys: string[]): Promise<Map<string, Row>> {
    const rows = await db.select({ key: r.key, count: r.count, windowStart: r.windowStart }).from(r).where(inArray(r.key, keys));
    return new Map(rows.map((row) => [row.key, row]));
  }

  /**
   * Counts one event unless the bucket is waiting; undefined when it is (then nothing changed).
   * The wait is computed in SQL from the row as locked by the upsert, so two instances agree.
   */
  async function take(b: Backoff, now: Date): Promise<number | undefined> {
    const iso = now.toISOString();
    const forgotten = olderThan(iso, b.forgetSeconds);
    const rows = await db
      .insert(r)
      .values({ key: b.key, windowStart: now, count: 1 })
      .onConflictDoUpdate({
        target: r.key,
        set: {
          count: sql`CASE WHEN ${forgotten} THEN 1 ELSE ${r.count} + 1 END`,
          windowStart: sql`${iso}::timestamptz`,
        },
        setWhere: sql`${forgotten}
          OR ${r.count} < ${b.free}
          OR ${r.windowStart} + make_interval(secs => least(${b.maxDelaySeconds}::float8, ${b.delaySeconds}::float8 * power(2::float8, least(${r.count} - ${b.free}, 40)))) <= ${iso}::timestamptz`,
      })
      .returning({ count: r.count });
    return rows.length ? Number(rows[0].count) : undefined;
  }

  /** Gives one counted event back; the last-event time goes back to what it was before. */
  async function giveBack(key: string, before: Row | undefined): Promise<void> {
    const count = sql`greatest(${r.count} - 1, 0)`;
    await db
      .update(r)
      .set(before ? { count, windowStart: new Date(before.windowStart) } : { count })
      .where(eq(r.key, key));
  }

  async function reset(key: string): Promise<void> {
    await db.delete(r).where(eq(r.key, key));
  }

  return {
    async hit(limit) {
      const { count, windowStart } = await increment(limit);
      if (count > limit.max) throw Errors.tooManyRequests(retryAfter(windowStart, limit.windowSeconds));
    },
    async check(limit) {
      const row = (await readRows([limit.key])).get(limit.key);
      if (!row) return;
      const left = retryAfter(new Date(row.windowStart), limit.windowSeconds);
      if (left > 0 && Number(row.count) >= limit.max) throw Errors.tooManyRequests(left);
    },
    async fail(limit) {
      return (await increment(limit)).count;
    },
    reset,

    async attempt(buckets) {
      const now = clock.now();
      const before = await readRows(buckets.map((b) => b.key));
      const wait = Math.max(0, ...buckets.map((b) => waitOf(b, before.get(b.key), now)));
      if (wait > 0) throw Errors.tooManyRequests(wait);
      const taken: Backoff[] = [];
      const counts: Record<string, number> = {};
      for (const b of buckets) {
        const count = await take(b, now);
        if (count === undefined) {
          // Another instance filled this bucket since the read: undo ours and answer its wait.
          for (const t of taken) await giveBack(t.key, before.get(t.key));
          const rows = await readRows([b.key]);
          throw Errors.tooManyRequests(Math.max(1, waitOf(b, rows.get(b.key), now)));
        }
        taken.push(b);
        counts[b.key] = count;
      }
      let settled = false;
      return {
        counts,
        async succeeded(clear = []) {
          if (settled) return;
          settled = true;
          for (const b of taken) if (!clear.includes(b.key)) await giveBack(b.key, before.get(b.key));
          for (const key of clear) await reset(key);
        },
        async cancel() {
          if (settled) return;
          settled = true;
          for (const b of taken) await giveBack(b.key, before.get(b.key));
        },
      };
    },

    async waitSeconds(bucket) {
      const rows = await readRows([bucket.key]);
      return waitOf(bucket, rows.get(bucket.key), clock.now());
    },
  };
}

/** Windows older than a day (the longest a limit counts over) decide nothing any more. */
export const rateLimitSweep = sweepOf('rate limit windows', `DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`);
