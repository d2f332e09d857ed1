import { RequestCounter } from './request-counter';
import type { RequestDelta } from './usage.repository';

// A fixed clock: the counter's minutes, not the time of the run.
const clock = { now: () => new Date('2026-03-01T13:30:15.000Z') };
const log = { warn: jest.fn() };

test('counts per project, caller and minute, by class; a flush hands them over once', async () => {
  const saved: RequestDelta[][] = [];
  const counter = new RequestCounter({ addRequests: async (rows) => void saved.push(rows) }, log, 0, clock);
  counter.record('p1', 200);
  counter.record('p1', 201);
  counter.record('p1', 404);
  counter.record('p1', 500, 'owner');
  counter.record('p2', 302);
  counter.record('p2', 101);
  await counter.flush();
  await counter.flush();
  expect(saved).toHaveLength(1);
  const minute = new Date('2026-03-01T13:30:00.000Z');
  expect(saved[0]).toEqual([
    { projectId: 'p1', ownerId: undefined, minute, s2xx: 2, s3xx: 0, s4xx: 1, s5xx: 0 },
    { projectId: 'p1', ownerId: 'owner', minute, s2xx: 0, s3xx: 0, s4xx: 0, s5xx: 1 },
    { projectId: 'p2', ownerId: undefined, minute, s2xx: 0, s3xx: 1, s4xx: 0, s5xx: 0 },
  ]);
});

test('a failed write is logged and the next batch still goes', async () => {
  let fail = true;
  const saved: RequestDelta[][] = [];
  const counter = new RequestCounter({ addRequests: async (rows) => { if (fail) throw new Error('down'); saved.push(rows); } }, log, 0, clock);
  counter.record('p1', 200);
  await counter.flush();
  expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ rows: 1 }), expect.stringContaining('dropped'));
  fail = false;
  counter.record('p1', 200);
  await counter.close();
  expect(saved).toEqual([[expect.objectContaining({ s2xx: 1 })]]);
});

test('many distinct entries are written without waiting for the timer', async () => {
  const saved: RequestDelta[][] = [];
  const counter = new RequestCounter({ addRequests: async (rows) => void saved.push(rows) }, log, 0, clock);
  for (let i = 0; i < 5100; i++) counter.record(`p${i}`, 200);
  await new Promise((resolve) => setImmediate(resolve));
  expect(saved.map((b) => b.length)).toEqual([5100]);
  counter.record('q', 200);
  await new Promise((resolve) => setImmediate(resolve));
  expect(saved).toHaveLength(1);
  await counter.close();
  expect(saved.map((b) => b.length)).toEqual([5100, 1]);
});
