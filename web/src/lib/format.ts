// Display helpers shared by the console screens. Numbers and sizes have one format on every screen:
// en-US grouping whatever the browser's locale (one screen printing 1,00,000 and another 100,000
// for the same count reads as two numbers), and sizes counted in 1024s under their binary names.

const NUMBERS = new Intl.NumberFormat('en-US');
const SIZE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A count or amount with en-US grouping: 100000 → "100,000"; options as Intl.NumberFormat's. */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return options ? new Intl.NumberFormat('en-US', options).format(n) : NUMBERS.format(n);
}

/** Bytes in B, KiB, MiB, GiB or TiB (base 1024; 2 decimals past bytes). */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'N/A';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${formatNumber(bytes / Math.pow(1024, i), { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${SIZE_UNITS[i]}`;
}

/** A date and time in the user's locale, or "N/A" when missing or invalid. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return 'N/A';
  return d.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** The file name kept in a storage object's metadata JSON string. */
export function fileNameFromMetadata(metadata: string | null | undefined, fallback = 'Untitled'): string {
  if (!metadata) return fallback;
  try {
    const parsed: unknown = JSON.parse(metadata);
    if (parsed && typeof parsed === 'object' && 'name' in parsed) {
      const name = (parsed as { name?: unknown }).name;
      if (typeof name === 'string' && name.trim()) return name;
    }
  } catch {
    /* not JSON: fall through */
  }
  return fallback;
}

/** Share URLs may be absolute or relative to the site; both open as-is. */
export function downloadUrl(path: string): string {
  return path + (path.includes('?') ? '&' : '?') + 'download=1';
}

export function absoluteUrl(path: string): string {
  try {
    return new URL(path, window.location.origin).toString();
  } catch {
    return path;
  }
}

export function isImageType(type: string | null | undefined): boolean {
  return !!type && type.toLowerCase().startsWith('image/');
}

export function pluralize(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}
