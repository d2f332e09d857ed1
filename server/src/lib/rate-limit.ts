// Fixed-window counters in the database, so every API instance enforces the same limit.
// One atomic upsert per hit: no read-then-write race between instances.
import type { Database } from '../db/client';
import type { Clock } from './clock';
import { Errors } from '../http/errors';

export interface Limit {
  /** Counter key, e.g. "login:ip:1.2.3.4". */
  key: string;
  max: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit and throws 429 when the window's count passes max. */
  hit(limit: Limit): Promise<void>;
  /** Throws 429 if the window is already full, without counting (for "failed tries" limits). */
  check(limit: Limit): Promise<void>;
  /** Counts a failure for a check()-style limit. */
  fail(limit: Limit): Promise<number>;
  reset(key: string): Promise<void>;
}

export function createRateLimiter(database: Database, clock: Clock): RateLimiter {
  async function increment(limit: Limit): Promise<{ count: number; windowStart: Date }> {
    const now = clock.now();
    const rows = await database.query<{ count: number; window_start: Date | string }>(
      `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.window_start <= $2::timestamptz - make_interval(secs => $3) THEN 1 ELSE r.count + 1 END,
         window_start = CASE WHEN r.window_start <= $2::timestamptz - make_interval(secs => $3) THEN $2 ELSE r.window_start END
       RETURNING count, window_start`,
      [limit.key, now.toISOString(), limit.windowSeconds],
    );
    return { count: Number(rows[0].count), windowStart: new Date(rows[0].window_start) };
  }

  function retryAfter(windowStart: Date, windowSeconds: number): number {
    return (windowStart.getTime() + windowSeconds * 1000 - clock.now().getTime()) / 1000;
  }

  return {
    async hit(limit) {
      const { count, windowStart } = await increment(limit);
      if (count > limit.max) throw Errors.tooManyRequests(retryAfter(windowStart, limit.windowSeconds));
    },
    async check(limit) {
      const rows = await database.query<{ count: number; window_start: Date | string }>(
        'SELECT count, window_start FROM rate_limits WHERE key = $1',
        [limit.key],
      );
      if (!rows.length) return;
      const windowStart = new Date(rows[0].window_start);
      const left = retryAfter(windowStart, limit.windowSeconds);
      if (left > 0 && Number(rows[0].count) >= limit.max) throw Errors.tooManyRequests(left);
    },
    async fail(limit) {
      return (await increment(limit)).count;
    },
    async reset(key) {
      await database.query('DELETE FROM rate_limits WHERE key = $1', [key]);
    },
  };
}
