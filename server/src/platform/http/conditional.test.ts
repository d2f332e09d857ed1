// The one implementation of conditional requests and ranges, table by table.
import { contentRange, etagMatches, ifRangeHolds, isNotModified, parseRange, rangeFor, unsatisfiedRange, type RangeDecision } from './conditional';

const etag = '"abc"';
const lastModified = new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 678));
const lmHttp = lastModified.toUTCString(); // whole seconds
const v = { etag, lastModified };

describe('etagMatches (weak comparison)', () => {
  test.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
    ['', false],
  ])('If-None-Match %j → %s', (inm, want) => expect(etagMatches(inm, etag)).toBe(want));
});

describe('isNotModified', () => {
  test.each<[string, Record<string, string>, boolean]>([
    ['no validators', {}, false],
    ['matching tag', { 'if-none-match': '"abc"' }, true],
    ['other tag', { 'if-none-match': '"zzz"' }, false],
    ['date equal (sub-second ignored)', { 'if-modified-since': lmHttp }, true],
    ['date later', { 'if-modified-since': new Date(lastModified.getTime() + 60_000).toUTCString() }, true],
    ['date earlier', { 'if-modified-since': new Date(lastModified.getTime() - 60_000).toUTCString() }, false],
    ['bad date', { 'if-modified-since': 'yesterday' }, false],
    ['If-None-Match wins over a fresh date', { 'if-none-match': '"zzz"', 'if-modified-since': lmHttp }, false],
  ])('%s', (_name, headers, want) => expect(isNotModified(headers, v)).toBe(want));

  test('no Last-Modified: the date is not used', () => {
    expect(isNotModified({ 'if-modified-since': lmHttp }, { etag })).toBe(false);
  });
});

describe('ifRangeHolds (strong comparison, or the exact date)', () => {
  test.each<[string, Record<string, string>, boolean]>([
    ['absent', {}, true],
    ['same tag', { 'if-range': '"abc"' }, true],
    ['other tag', { 'if-range': '"zzz"' }, false],
    ['weak tag never', { 'if-range': 'W/"abc"' }, false],
    ['exact date', { 'if-range': lmHttp }, true],
    ['other date', { 'if-range': new Date(lastModified.getTime() - 1000).toUTCString() }, false],
    ['garbage', { 'if-range': 'nope' }, false],
  ])('%s', (_name, headers, want) => expect(ifRangeHolds(headers, v)).toBe(want));
});

describe('parseRange (size 1000)', () => {
  const partial = (start: number, end: number): RangeDecision => ({ kind: 'partial', start, end });
  test.each<[string | undefined, RangeDecision]>([
    [undefined, { kind: 'full' }],
    ['bytes=100-199', partial(100, 199)],
    ['bytes=0-0', partial(0, 0)],
    ['bytes=900-', partial(900, 999)],
    ['bytes=900-5000', partial(900, 999)],
    ['bytes=-10', partial(990, 999)],
    ['bytes=-5000', partial(0, 999)],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=5000-6000', { kind: 'unsatisfiable' }],
    ['bytes=200-100', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
    ['bytes=0-1,5-6', { kind: 'full' }],
    ['items=0-1', { kind: 'full' }],
    ['bytes=abc', { kind: 'full' }],
    ['bytes=99999999999999999999-', { kind: 'unsatisfiable' }],
  ])('%j', (header, want) => expect(parseRange(header, 1000)).toEqual(want));

  test('an empty representation satisfies no range', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('rangeFor', () => {
  test.each<[string, Record<string, string>, RangeDecision]>([
    ['no Range', { 'if-range': etag }, { kind: 'full' }],
    ['Range, no If-Range', { range: 'bytes=1-2' }, { kind: 'partial', start: 1, end: 2 }],
    ['If-Range matches', { range: 'bytes=1-2', 'if-range': etag }, { kind: 'partial', start: 1, end: 2 }],
    ['If-Range stale: whole file', { range: 'bytes=1-2', 'if-range': '"old"' }, { kind: 'full' }],
    ['If-Range stale beats unsatisfiable', { range: 'bytes=5000-', 'if-range': '"old"' }, { kind: 'full' }],
    ['unsatisfiable', { range: 'bytes=5000-' }, { kind: 'unsatisfiable' }],
  ])('%s', (_name, headers, want) => expect(rangeFor(headers, 1000, v)).toEqual(want));
});

test('Content-Range values', () => {
  expect(contentRange({ start: 100, end: 199 }, 1000)).toBe('bytes 100-199/1000');
  expect(unsatisfiedRange(1000)).toBe('bytes */1000');
});
