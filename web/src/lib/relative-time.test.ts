import { formatRelative } from './relative-time';

const now = Date.UTC(2026, 10, 23, 12, 0, 0);
const before = (seconds: number) => new Date(now - seconds * 1000);

it('says how long ago, in the largest unit that fits', () => {
  expect(formatRelative(before(10), now)).toBe('just now');
  expect(formatRelative(before(5 * 60), now)).toBe('5 minutes ago');
  expect(formatRelative(before(3 * 3600), now)).toBe('3 hours ago');
  expect(formatRelative(before(86400), now)).toBe('yesterday');
  expect(formatRelative(before(3 * 7 * 86400), now)).toBe('3 weeks ago');
  expect(formatRelative(before(400 * 86400), now)).toBe('last year');
});

it('reads "N/A" for what is not a date', () => {
  expect(formatRelative('not a date', now)).toBe('N/A');
  expect(formatRelative(null, now)).toBe('N/A');
});
