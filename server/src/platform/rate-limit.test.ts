// The limiter's counts are single upserts: parallel hits never slip past a window's max, and a
// window (or a backoff bucket) starts over once its time has passed on the injected clock.
import { createTestDatabase } from '../../../test/helpers/test-db';
import type { Clock } from './clock';
import { createRateLimiter } from './rate-limit';

let at = new Date('2030-01-01T00:00:00Z').getTime();
const clock: Clock = { now: () => new Date(at) };

test('fixed windows: of 20 parallel hits 5 pass; the window restarts after windowSeconds', async () => {
  const tdb = await createTestDatabase();
  try {
    const limiter = createRateLimiter(tdb.database, clock);
    const limit = { key: `t:${Date.now()}`, max: 5, windowSeconds: 60 };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => limiter.hit(limit)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason;
    expect({ status: refused.statusCode, code: refused.code, retry: refused.headers['retry-after'] }).toEqual({ status: 429, code: 'RATE_LIMITED', retry: '60' });
    await expect(limiter.check(limit)).rejects.toMatchObject({ statusCode: 429 });
    at += 61_000;
    await expect(limiter.check(limit)).resolves.toBeUndefined();
    await expect(limiter.hit(limit)).resolves.toBeUndefined();
    expect(await limiter.fail(limit)).toBe(2);
    await limiter.reset(limit.key);
    expect(await limiter.fail(limit)).toBe(1);
  } finally {
    await tdb.drop();
  }
});

test('backoff buckets: parallel attempts past the free ones wait; a cancelled attempt gives its count back', async () => {
  const tdb = await createTestDatabase();
  try {
    const limiter = createRateLimiter(tdb.database, clock);
    const bucket = { key: `b:${Date.now()}`, free: 3, delaySeconds: 10, maxDelaySeconds: 100, forgetSeconds: 3600 };
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => limiter.attempt([bucket])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await limiter.waitSeconds(bucket)).toBe(10);
    at += 10_000;
    const ticket = await limiter.attempt([bucket]);
    expect(ticket.counts[bucket.key]).toBe(4);
    expect(await limiter.waitSeconds(bucket)).toBe(20);
    await ticket.cancel();
    expect(await limiter.waitSeconds(bucket)).toBe(0);
    await expect(limiter.attempt([bucket])).resolves.toMatchObject({ counts: { [bucket.key]: 4 } });
  } finally {
    await tdb.drop();
  }
});
