// "5 minutes ago" for the activity and errors lists; the exact date goes in a tooltip.
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.345],
  ['month', 12],
  ['year', Infinity],
];

/** How long ago `value` was, from `now`; "N/A" when it is not a date. */
export function formatRelative(value: string | Date | null | undefined, now: number = Date.now()): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const at = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(at)) return 'N/A';
  let amount = (at - now) / 1000;
  if (Math.abs(amount) < 45) return 'just now';
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}
