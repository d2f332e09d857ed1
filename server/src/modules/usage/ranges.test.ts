import { dayOf, monthStartOf, rangeWindow } from './ranges';
import { statusClass } from './request-counter';

// A fixed instant: what the windows are made of, not what time it is.
const at = new Date('2026-03-01T13:30:15.000Z');

test('a week is 168 hours ending with the current hour, touching 8 UTC days', () => {
  const w = rangeWindow('7d', at);
  expect(w.bucket).toBe('hour');
  expect(w.starts).toHaveLength(168);
  expect(new Date(w.starts[167]).toISOString()).toBe('2026-03-01T13:00:00.000Z');
  expect(w.from.toISOString()).toBe('2026-02-22T14:00:00.000Z');
  expect(w.days).toEqual(['2026-02-22', '2026-02-23', '2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01']);
});

test('30 days and 3 months are days ending today', () => {
  const month = rangeWindow('30d', at);
  expect(month.bucket).toBe('day');
  expect(month.starts.map((s) => dayOf(new Date(s)))).toEqual(month.days);
  expect(month.days[0]).toBe('2026-01-31');
  expect(month.days[29]).toBe('2026-03-01');
  const quarter = rangeWindow('3m', at);
  expect(quarter.days).toHaveLength(90);
  expect(quarter.days[0]).toBe('2025-12-02');
});

test('the month starts on its first UTC day', () => {
  expect(monthStartOf(at)).toBe('2026-03-01');
  expect(monthStartOf(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-01');
});

test('status classes', () => {
  expect([200, 204, 301, 304, 400, 404, 499, 500, 503].map(statusClass)).toEqual(['s2xx', 's2xx', 's3xx', 's3xx', 's4xx', 's4xx', 's4xx', 's5xx', 's5xx']);
  expect(statusClass(101)).toBeUndefined();
  expect(statusClass(600)).toBeUndefined();
});
