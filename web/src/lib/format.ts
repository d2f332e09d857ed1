// Display helpers shared by the console screens.

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in B, KB, MB, GB or TB (base 1024, 2 decimals). */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return 'N/A';
  if (bytes === 0) return '0 B';
  const i = Math.min(SIZE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${(bytes / Math.pow(1024, i)).toFixed(2)} ${SIZE_UNITS[i]}`;
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
