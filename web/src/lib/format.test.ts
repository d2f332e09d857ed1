import { downloadUrl, fileNameFromMetadata, formatDate, formatNumber, formatSize } from './format';

describe('formatSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [1536, '1.50 KiB'],
    [1048576, '1.00 MiB'],
    [100 * 1024 ** 2, '100.00 MiB'],
    [5 * 1024 ** 3, '5.00 GiB'],
    [2.5 * 1024 ** 4, '2.50 TiB'],
    [3 * 1024 ** 5, '3,072.00 TiB'],
  ])('%d bytes -> %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('says N/A for missing or impossible sizes', () => {
    expect(formatSize(undefined)).toBe('N/A');
    expect(formatSize(null)).toBe('N/A');
    expect(formatSize(-1)).toBe('N/A');
    expect(formatSize(Number.NaN)).toBe('N/A');
  });
});

describe('formatNumber', () => {
  it('groups in thousands (en-US) whatever the browser locale', () => {
    const spy = jest.spyOn(Intl, 'NumberFormat');
    expect(formatNumber(100000)).toBe('100,000');
    expect(formatNumber(1234567.5)).toBe('1,234,567.5');
    expect(formatNumber(2.5, { minimumFractionDigits: 2 })).toBe('2.50');
    // Never the locale's own grouping (en-IN would give 1,00,000).
    expect(spy.mock.calls.every(([locale]) => locale === 'en-US')).toBe(true);
    spy.mockRestore();
  });
});

describe('formatDate', () => {
  it('shows N/A for invalid or missing dates', () => {
    expect(formatDate('not a date')).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined)).toBe('N/A');
  });

  it('formats a valid ISO date', () => {
    const text = formatDate('2025-03-04T10:20:00Z');
    expect(text).not.toBe('N/A');
    expect(text).toMatch(/2025/);
  });
});

describe('fileNameFromMetadata', () => {
  it('reads the name from the metadata JSON', () => {
    expect(fileNameFromMetadata('{"name":"cat.png"}')).toBe('cat.png');
  });
  it('falls back on bad metadata', () => {
    expect(fileNameFromMetadata('{oops')).toBe('Untitled');
    expect(fileNameFromMetadata('{}')).toBe('Untitled');
    expect(fileNameFromMetadata(undefined, 'x')).toBe('x');
  });
});

it('builds the download link from the share path', () => {
  expect(downloadUrl('/api/s3/object-storage/seg/obj')).toBe('/api/s3/object-storage/seg/obj?download=1');
  expect(downloadUrl('https://b.example/s3/object-storage/seg/obj?v=1')).toBe('https://b.example/s3/object-storage/seg/obj?v=1&download=1');
});
