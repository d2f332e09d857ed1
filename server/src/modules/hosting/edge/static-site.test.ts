// Which file names count as content-hashed (cached for a year) in static-site.ts.
import { isHashed } from './static-site';

test.each([
  ['assets/index-3f9a1c2b.js', true],
  ['app.3f9a1c2b.css', true],
  ['fonts/inter-var.abcdef12.woff2', true],
  ['chunk-3f9a1c2b.map', true],
  ['main.a1b2c3d4e5.js.map', false],
  ['x-12345678.JS', false],
  ['a/b-1234567.js', false],
  ['img/logo.png', false],
  ['abcdefgh12345678.js', false],
  ['dir.12345678/app.js', false],
  ['index.html', false],
])('%s: %s', (name, hashed) => expect(isHashed(name)).toBe(hashed));

test('a long run of - is read once', () => {
  expect(isHashed(`${'-'.repeat(100_000)}.js`)).toBe(true);
  expect(isHashed(`${'-'.repeat(100_000)}!.js`)).toBe(false);
});
