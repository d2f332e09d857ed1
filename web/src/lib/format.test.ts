import { downloadUrl, fileNameFromMetadata, formatDate, formatSize } from './format';

describe('formatSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1.00 B'],
    [1023, '1023.00 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1048576, '1.00 MB'],
    [5 * 1024 ** 3, '5.00 GB'],
    [2.5 * 1024 ** 4, '2.50 TB'],
    [3 * 1024 ** 5, '3072.00 TB'],
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
