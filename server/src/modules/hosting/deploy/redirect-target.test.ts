// _redirects targets filled in per request (redirect-target.ts): a target in the site stays in the
// site whatever the path brought, an http(s) target keeps the host the developer wrote.
import { compileTarget, encodeControls, fillTarget, onSite } from './redirect-target';

const fill = (to: string, values: Record<string, string>) => fillTarget(compileTarget(to), new Map(Object.entries(values)));

describe('a target in the site never leaves it', () => {
  // What `/old/*  /:splat` builds from the request `/old/<splat>`, and where it now points.
  test.each([
    ['//evil.example/login', '/evil.example/login'],
    ['/\\evil.example', '/evil.example'],
    ['\\\\evil.example', '/evil.example'],
    ['\\/evil.example', '/evil.example'],
    ['%2F%2Fevil.example', '/evil.example'],
    ['%2f/evil.example', '/evil.example'],
    ['/%2Fevil.example', '/evil.example'],
    ['%5Cevil.example', '/evil.example'],
    ['%5c%5Cevil.example', '/evil.example'],
    ['\t/evil.example', '/evil.example'],
    ['/\t/evil.example', '/evil.example'],
    ['\n/evil.example', '/evil.example'],
    ['\r\n//evil.example', '/evil.example'],
    ['%09/evil.example', '/evil.example'],
    ['%0a%0D/evil.example', '/evil.example'],
    ['%00/evil.example', '/evil.example'],
    [' /evil.example', '/evil.example'],
    ['%20%20//evil.example', '/evil.example'],
    ['\u0000/evil.example', '/evil.example'],
    ['\u007f/evil.example', '/evil.example'],
  ])('splat %j -> %j', (splat, location) => {
    expect(fill('/:splat', { splat: '/' + splat })).toBe(location);
    expect(fill('/:splat', { splat })).toBe(location);
  });

  test('ordinary targets are untouched', () => {
    expect(fill('/new.html', {})).toBe('/new.html');
    expect(fill('/posts/:year-:slug.html', { year: '2024', slug: 'hello' })).toBe('/posts/2024-hello.html');
    expect(fill('/:splat', { splat: '' })).toBe('/');
    expect(fill('/:splat', { splat: 'a/b%2Fc' })).toBe('/a/b%2Fc');
    expect(fill('/docs/:splat', { splat: '/evil.example' })).toBe('/docs//evil.example'); // a path of this site
    expect(fill('/search?q=:splat', { splat: 'x' })).toBe('/search?q=x');
    expect(fill('/:splat', { splat: '%2' })).toBe('/%2');
  });

  test('spaces and control characters further in are %-encoded (browsers drop tabs and newlines anywhere)', () => {
    expect(fill('/a/:splat', { splat: 'b\tc d\r\n' })).toBe('/a/b%09c%20d%0D%0A');
    expect(onSite('/x\u007f')).toBe('/x%7F');
    expect(encodeControls('/plain')).toBe('/plain');
  });
});

describe('an http(s) target keeps the host the developer wrote', () => {
  test('values in the path, query or fragment change nothing about the host', () => {
    expect(fill('https://docs.example.com/:splat', { splat: 'guide/intro' })).toBe('https://docs.example.com/guide/intro');
    expect(fill('https://docs.example.com/:splat', { splat: '//evil.example' })).toBe('https://docs.example.com///evil.example');
    expect(fill('https://docs.example.com/:splat', { splat: '' })).toBe('https://docs.example.com/');
    expect(fill('https://example.com:8443/:splat', { splat: 'y' })).toBe('https://example.com:8443/y');
    expect(fill('https://docs.example.com/?from=:splat', { splat: 'a\tb' })).toBe('https://docs.example.com/?from=a%09b');
  });

  test('a value in the host part may hold letters, digits, - and . only', () => {
    expect(fill('https://:store.shops.example/', { store: 'acme-1' })).toBe('https://acme-1.shops.example/');
    for (const store of ['evil.example#', 'evil.example/', 'evil.example?', 'evil.example\\', 'user@evil.example', 'evil.example:80', 'a%2F', 'a b', 'a\tb']) {
      expect({ store, target: fill('https://:store.shops.example/', { store }) }).toEqual({ store, target: undefined });
    }
    // After the host, the same value is only a path.
    expect(fill('https://shops.example/:store', { store: 'evil.example#' })).toBe('https://shops.example/evil.example#');
  });
});
