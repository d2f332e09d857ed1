// Content-coding negotiation by RFC 9110 12.5.3, header by header.
import { negotiateEncoding, varyWithAcceptEncoding } from './accept-encoding';

const both = ['br', 'gzip'] as const;

test.each([
  [undefined, 'identity'],
  ['', 'identity'],
  ['gzip, deflate, br, zstd', 'br'],
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['GZIP;Q=0.5', 'gzip'],
  ['gzip;q=1, br;q=0.9', 'gzip'],
  ['br;q=0.001', 'br'],
  ['br;q=0', 'identity'],
  ['*', 'br'],
  ['*;q=0.5, br;q=0', 'gzip'],
  ['*;q=0', 'identity'],
  ['identity;q=0, gzip;q=0.1', 'gzip'],
  ['identity, gzip;q=0.5', 'identity'],
  ['br;q=1.5, gzip', 'gzip'],
  ['br;q=0.5000, gzip;q=0.4', 'gzip'],
  ['br ; q = 0.7 , gzip;q=0.6', 'br'],
  [['gzip;q=0.2', 'br;q=0.1'], 'gzip'],
  [';;, ,;q=1', 'identity'],
])('%j -> %s', (header, coding) => {
  expect(negotiateEncoding(header as string | string[] | undefined, both)).toBe(coding);
});

test('only the codings available are chosen', () => {
  expect(negotiateEncoding('br', ['gzip'])).toBe('identity');
  expect(negotiateEncoding('br, gzip;q=0.1', ['gzip'])).toBe('gzip');
  expect(negotiateEncoding('*', [])).toBe('identity');
});

test('Vary gets Accept-Encoding once', () => {
  expect(varyWithAcceptEncoding(undefined)).toBe('Accept-Encoding');
  expect(varyWithAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding');
  expect(varyWithAcceptEncoding('origin, accept-encoding')).toBe('origin, accept-encoding');
  expect(varyWithAcceptEncoding(['Origin', 'Accept-Encoding'])).toBe('Origin, Accept-Encoding');
  expect(varyWithAcceptEncoding('*')).toBe('*');
});
