// The cache's rules, with a database whose notices the test sends by hand: a notice drops what it
// names, a lookup a notice overtook is not kept, nothing is served while not listening.
import type { Database } from '../db/client';
import { LookupCache } from './lookup-cache';

function scripted() {
  let notify: (payload: string) => void = () => undefined;
  let gap: () => void = () => undefined;
  let resume: () => void = () => undefined;
  const database = {
    listen: async (_channel: string, onPayload: (p: string) => void, onGap?: () => void, onResume?: () => void) => {
      notify = onPayload;
      gap = onGap ?? gap;
      resume = onResume ?? resume;
      return async () => undefined;
    },
    // barrier(): the notice comes back, as PostgreSQL would send it; no other instance is up.
    query: async (sql: string, params: unknown[]) => {
      if (sql.includes('pg_notify')) setImmediate(() => notify(params[1] as string));
      return [];
    },
  } as unknown as Database;
  return { database, notify: (p: string) => notify(p), gap: () => gap(), resume: () => resume() };
}

const row = (id: string, v: number) => ({ id, v });
const tags = (r: { id: string }) => [`project:${r.id}`];

test('kept after the first read; a notice for its row drops it, one for another row does not', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  const load = jest.fn().mockResolvedValueOnce(row('p1', 1)).mockResolvedValueOnce(row('p1', 2));
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 1 });
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 1 });
  expect(load).toHaveBeenCalledTimes(1);
  db.notify('project:p2');
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 1 });
  db.notify('project:p1');
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 2 });
  expect(load).toHaveBeenCalledTimes(2);
});

test('a lookup under way when a notice arrives is answered but not kept', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  let finish!: (v: { id: string; v: number }) => void;
  const slow = cache.get('k', () => new Promise<{ id: string; v: number }>((r) => (finish = r)), tags);
  db.notify('project:p1'); // the row changed while the read was on its way
  finish(row('p1', 1));
  expect(await slow).toEqual({ id: 'p1', v: 1 });
  expect(cache.size).toBe(0);
});

test('nothing found is not kept', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  const load = jest.fn().mockResolvedValue(undefined);
  await cache.get('k', load, tags);
  await cache.get('k', load, tags);
  expect(load).toHaveBeenCalledTimes(2);
});

test('while the notices are cut off nothing is served from memory; back, it starts empty', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  let v = 0;
  const load = async () => row('p1', ++v);
  await cache.get('k', load, tags);
  db.gap();
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 2 });
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 3 });
  expect(cache.size).toBe(0);
  db.resume();
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 4 });
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 4 });
});

test('not started (never listening): every call reads', async () => {
  const cache = new LookupCache(scripted().database);
  const load = jest.fn().mockResolvedValue(row('p1', 1));
  await cache.get('k', load, tags);
  await cache.get('k', load, tags);
  expect(load).toHaveBeenCalledTimes(2);
});

test('barrier() resolves when its notice comes back; one that never does drops everything', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  await cache.get('k', async () => row('p1', 1), tags);
  await cache.barrier();
  expect(cache.size).toBe(1);
  // A database that swallows the barrier's notice.
  (db.database as unknown as { query: (sql: string) => Promise<unknown[]> }).query = async () => [];
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
  try {
    const waiting = cache.barrier();
    await Promise.resolve();
    await Promise.resolve();
    jest.advanceTimersByTime(2500);
    await waiting;
  } finally {
    jest.useRealTimers();
  }
  expect(cache.size).toBe(0);
});

test('what is kept is frozen: a caller can not change what the next one reads', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  await cache.get('k', async () => row('p1', 1), tags);
  const kept = (await cache.get('k', async () => row('p1', 9), tags)) as { v: number };
  expect(() => {
    kept.v = 2;
  }).toThrow(TypeError);
});

test('forget() drops what was kept from a row at once, here, with no notice, and a lookup under way is not kept', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  const load = jest.fn().mockResolvedValueOnce(row('p1', 1)).mockResolvedValueOnce(row('p1', 2));
  await cache.get('k', load, tags);
  await cache.get('other', async () => row('p2', 1), tags);
  cache.forget('project:p1');
  expect(cache.size).toBe(1);
  expect(await cache.get('k', load, tags)).toEqual({ id: 'p1', v: 2 });
  let finish!: (v: { id: string; v: number }) => void;
  const slow = cache.get('k2', () => new Promise<{ id: string; v: number }>((r) => (finish = r)), tags);
  cache.forget('project:p3');
  finish(row('p3', 1));
  await slow;
  expect(cache.size).toBe(2);
});

test('entries are weighed: a heavy one pushes out the oldest, one heavier than everything is not kept', async () => {
  const db = scripted();
  const cache = new LookupCache(db.database);
  await cache.start();
  await cache.get('light', async () => row('p1', 1), tags);
  await cache.get('half', async () => row('p2', 1), tags, () => 25_000);
  await cache.get('rest', async () => row('p3', 1), tags, () => 25_000);
  // 1 + 25,000 + 25,000 is past the 50,000 units: the oldest went.
  expect(cache.size).toBe(2);
  await cache.get('huge', async () => row('p4', 1), tags, () => 50_001);
  expect(cache.size).toBe(2);
});
