// Byte counts as people read them, in messages and notices (quotas, plan limits, sizes).
/** 104857600 → "100 MiB": base 1024 like the console, up to 2 decimals. */
export function humanBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Math.round(value * 100) / 100} ${units[unit]}`;
}
