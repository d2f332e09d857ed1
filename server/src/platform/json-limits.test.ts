import { DEFAULT_JSON_LIMITS, JsonLimitError, jsonTextTooDeep, jsonValueDepth, parseBoundedJson } from './json-limits';

const nested = (n: number, inner = '1') => '['.repeat(n) + inner + ']'.repeat(n);

test('depth is counted on the text, brackets inside strings and escapes do not count', () => {
  expect(jsonTextTooDeep(nested(100), 100)).toBe(false);
  expect(jsonTextTooDeep(nested(101), 100)).toBe(true);
  expect(jsonTextTooDeep(`{"a":${nested(99)}}`, 100)).toBe(false);
  expect(jsonTextTooDeep(`{"a":${nested(100)}}`, 100)).toBe(true);
  expect(jsonTextTooDeep(JSON.stringify({ s: '[[[[[[{{{{{', t: 'a\\"[[[' }), 1)).toBe(false);
  expect(jsonTextTooDeep(JSON.stringify(['\\', '[[[']), 1)).toBe(false);
});

test('a document past the depth or size limit is refused before it is parsed, with the limit in the message', () => {
  expect(parseBoundedJson(nested(100), 'body')).toEqual(JSON.parse(nested(100)));
  expect(() => parseBoundedJson(nested(5000), 'body')).toThrow(new JsonLimitError('depth', 100, 'body'));
  expect(() => parseBoundedJson(nested(5000), 'body')).toThrow('body nests arrays and objects deeper than 100 levels (the limit)');
  expect(() => parseBoundedJson(`"${'é'.repeat(600_000)}"`, 'package.json')).toThrow('package.json is larger than 1048576 bytes (the limit)');
  expect(() => parseBoundedJson('{', 'body')).toThrow(SyntaxError);
  expect(() => parseBoundedJson(nested(3), 'body', { ...DEFAULT_JSON_LIMITS, maxDepth: 2 })).toThrow(/deeper than 2 levels/);
});

test('the depth of a parsed value is measured without recursion', () => {
  expect(jsonValueDepth(1)).toBe(0);
  expect(jsonValueDepth({ a: [1, { b: [] }] })).toBe(4);
  expect(jsonValueDepth(JSON.parse(nested(50_000)))).toBe(50_000);
});
