// How the dashboard writes its figures: counts with separators, buckets in UTC (the server's).
import type { UsageRange } from '../../api/generated/model/usageRange';
import { formatNumber } from '../../lib/format';

/** The range selector's options (SPEC section 2) and the range each asks the API for. */
export const RANGES: { label: string; range: UsageRange }[] = [
  { label: 'Last 7 days', range: '7d' },
  { label: '30 days', range: '30d' },
  { label: '3 months', range: '3m' },
];

export function formatCount(n: number): string {
  return formatNumber(n);
}

export function formatRate(perSecond: number): string {
  return formatNumber(perSecond, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A bucket's start as a label: the day, and the hour for hourly buckets (UTC). */
export function bucketLabel(start: string, bucket: 'hour' | 'day'): string {
  const d = new Date(start);
  const day = d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  return bucket === 'hour' ? `${day}, ${String(d.getUTCHours()).padStart(2, '0')}:00 UTC` : day;
}
