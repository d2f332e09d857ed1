// The dashboard's ranges (SPEC section 2: Last 7 days, 30 days, 3 months) as buckets: hours for a
// week, days beyond. All in UTC; a range ends with the bucket that holds `now`.
import type { Bucket } from './usage.repository';

export type UsageRange = '7d' | '30d' | '3m';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

const RANGES: Record<UsageRange, { bucket: Bucket; buckets: number }> = {
  '7d': { bucket: 'hour', buckets: 7 * 24 },
  '30d': { bucket: 'day', buckets: 30 },
  '3m': { bucket: 'day', buckets: 90 },
};

export interface RangeWindow {
  bucket: Bucket;
  /** The first bucket's start. */
  from: Date;
  /** Every bucket's start, oldest first (ms since the epoch). */
  starts: number[];
  /** Every UTC day the range touches, oldest first (YYYY-MM-DD). */
  days: string[];
}

export function rangeWindow(range: UsageRange, now: Date): RangeWindow {
  const { bucket, buckets } = RANGES[range];
  const size = bucket === 'hour' ? HOUR : DAY;
  const last = Math.floor(now.getTime() / size) * size;
  const starts = Array.from({ length: buckets }, (_, i) => last - (buckets - 1 - i) * size);
  const firstDay = Math.floor(starts[0] / DAY) * DAY;
  const days: string[] = [];
  for (let d = firstDay; d <= last; d += DAY) days.push(dayOf(new Date(d)));
  return { bucket, from: new Date(starts[0]), starts, days };
}

/** The UTC day of an instant, YYYY-MM-DD. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first day of the instant's UTC month, YYYY-MM-DD. */
export function monthStartOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}
