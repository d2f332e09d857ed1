// _redirects and _headers parsing (site-rules.ts): what is accepted, what is refused with the file
// and line, and how the compiled rules match paths.
import { matcherSteps } from '../../server/src/modules/hosting/deploy/path-pattern';
import {
  compileRules,
  headersFor,
  matchRedirects,
  MAX_HEADER_RULES,
  MAX_REDIRECTS,
  MAX_WHOLE_PATH_PATTERNS,
  parseHeaders,
  parseRedirects,
  RulesError,
  type SiteRules,
} from '../../server/src/modules/hosting/deploy/site-rules';

describe('_redirects: accepted lines', () => {
  const cases: [string, string, object[]][] = [
    ['default 301', '/old /new', [{ from: '/old', to: '/new', status: 301, force: false }]],
    ['status and force', '/a /b 302!', [{ from: '/a', to: '/b', status: 302, force: true }]],
    ['rewrite', '/app/* /index.html 200', [{ from: '/app/*', to: '/index.html', status: 200, force: false }]],
    ['404 rule', '/gone /404.html 404', [{ from: '/gone', to: '/404.html', status: 404, force: false }]],
    ['placeholders and splat', '/blog/:year/:slug/* /posts/:year-:slug/:splat 308', [{ from: '/blog/:year/:slug/*', to: '/posts/:year-:slug/:splat', status: 308, force: false }]],
    ['external redirect', '/docs https://docs.example.com/ 301', [{ from: '/docs', to: 'https://docs.example.com/', status: 301, force: false }]],
    ['external URL with a port', '/x https://example.com:8443/y 302', [{ from: '/x', to: 'https://example.com:8443/y', status: 302, force: false }]],
    ['comments, blank lines, trailing comment, tabs', '# c\n\n/a\t/b   307 # moved\r\n', [{ from: '/a', to: '/b', status: 307, force: false }]],
    ['303', '/form /thanks 303', [{ from: '/form', to: '/thanks', status: 303, force: false }]],
  ];
  test.each(cases)('%s', (_n, text, rules) => expect(parseRedirects(text)).toEqual(rules));
});

describe('_redirects: refused lines name the file and the line', () => {
  const cases: [string, string, RegExp][] = [
    ['one token', '\n/a', /^_redirects line 2: a rule needs a path and a target/],
    ['unknown status', '/a /b 418', /line 1: status 418 is not supported/],
    ['proxy rewrite', '/api/* https://api.example.com/:splat 200', /line 1: a 200 rewrite to another site \(proxying to https:\/\/api\.example\.com\/:splat\) is not supported/],
    ['proxy 404', '/x http://example.com 404', /proxying/],
    ['relative target', '/a b', /the target must be a path starting with \//],
    ['protocol-relative target', '/a //evil.example/x', /the target must be a path/],
    ['javascript target', '/a javascript:alert(1) 302', /the target must be a path/],
    ['source without slash', 'a /b', /the path must start with \//],
    ['domain rule', 'https://other.example/a /b', /other domains are not supported/],
    ['query matching', '/a?x=1 /b', /query string matching is not supported/],
    ['condition', '/a /b 302 Country=fr', /conditions \(Country=fr\) are not supported/],
    ['query param token', '/a /b id=:id 301', /conditions \(id=:id\) are not supported/],
    ['splat in the middle', '/a/*/b /c', /a splat \(\*\) is supported only as the whole last segment/],
    ['unknown placeholder', '/a/:x /b/:y', /the target uses :y, which the path does not define/],
    ['splat without a splat', '/a /b/:splat', /uses :splat/],
    ['garbage after status', '/a /b 301 extra', /unexpected "extra"/],
    ['control character', '/a /b\u0007c', /control character/],
  ];
  test.each(cases)('%s', (_n, text, message) => {
    expect(() => parseRedirects(text)).toThrow(RulesError);
    expect(() => parseRedirects(text)).toThrow(message);
  });

  test('at most MAX_REDIRECTS rules; the file size is bounded', () => {
    const ok = Array.from({ length: MAX_REDIRECTS }, (_, i) => `/r${i} /t${i}`).join('\n');
    expect(parseRedirects(ok)).toHaveLength(MAX_REDIRECTS);
    expect(() => parseRedirects(ok + '\n/one /more')).toThrow(`line ${MAX_REDIRECTS + 1}: more than ${MAX_REDIRECTS} rules`);
    expect(() => parseRedirects('#'.repeat(300 * 1024))).toThrow('_redirects: the file is larger than 256 KiB.');
  });
});

describe('_headers', () => {
  test('blocks of indented headers under path lines', () => {
    const text = '# site\n/*\n  X-Frame-Options: DENY\n  Cache-Control: public, max-age=60\n\n/assets/*\n\tCache-Control: max-age=31536000\n';
    expect(parseHeaders(text)).toEqual([
      { path: '/*', headers: [['x-frame-options', 'DENY'], ['cache-control', 'public, max-age=60']] },
      { path: '/assets/*', headers: [['cache-control', 'max-age=31536000']] },
    ]);
  });

  const refused: [string, string, RegExp][] = [
    ['header before a path', '  X-A: 1', /_headers line 1: a header must follow a path line/],
    ['no colon', '/*\n  nonsense', /line 2: expected "Name: value"/],
    ['bad name', '/*\n  Bad Name: x', /line 2: "bad name" is not a valid header name/],
    ['Set-Cookie', '/*\n  Set-Cookie: session=1; Domain=example.com', /line 2: the set-cookie header cannot be set here \(cookies set by a static file could reach the platform's own domain\)/],
    ['hop-by-hop', '/*\n  Connection: close', /the connection header cannot be set here/],
    ['transfer-encoding', '/*\n  Transfer-Encoding: chunked', /transfer-encoding/],
    ['content-length', '/*\n  Content-Length: 1', /content-length/],
    ['proxy-*', '/*\n  Proxy-Foo: 1', /proxy-foo/],
    ['nosniff is the platform\'s', '/*\n  X-Content-Type-Options: none', /x-content-type-options/],
    ['location', '/*\n  Location: /x', /use _redirects/],
    ['value too long', `/*\n  X-A: ${'a'.repeat(5000)}`, /longer than 4096 bytes/],
    ['block too big', `/*\n${Array.from({ length: 3 }, (_, i) => `  X-${i}: ${'a'.repeat(4000)}`).join('\n')}`, /add up to more than 8192 bytes/],
    ['path with spaces', '/a b', /holds the path alone/],
    ['path without slash', 'index.html\n  X-A: 1', /must start with \//],
  ];
  test.each(refused)('refused: %s', (_n, text, message) => {
    expect(() => parseHeaders(text)).toThrow(message);
  });
});

describe('matching', () => {
  const rules = compileRules({
    redirects: parseRedirects('/old /new\n/blog/:year/:slug /posts/:year/:slug 302\n/app/* /app.html 200\n/docs/* https://docs.example.com/:splat 301'),
    headers: parseHeaders('/*\n  X-All: 1\n/assets/*\n  X-Assets: 2\n/*.css\n  X-Css: 3\n/:lang/about\n  X-About: 4'),
  })!;
  const first = (p: string) => [...matchRedirects(rules, p)][0];

  test('exact paths, trailing slash and case ignored', () => {
    expect(first('/old')?.target).toBe('/new');
    expect(first('/old/')?.target).toBe('/new');
    expect(first('/OLD')?.target).toBe('/new');
    expect(first('/older')).toBeUndefined();
  });
  test('placeholders and splats', () => {
    expect(first('/blog/2024/hello')?.target).toBe('/posts/2024/hello');
    expect(first('/blog/2024')).toBeUndefined();
    expect(first('/app')?.target).toBe('/app.html');
    expect(first('/app/x/y')?.target).toBe('/app.html');
    expect(first('/docs/a/b')?.target).toBe('https://docs.example.com/a/b');
    expect(first('/docs')?.target).toBe('https://docs.example.com/');
  });
  test('headers of every matching block', () => {
    expect(headersFor(rules, '/')).toEqual({ 'x-all': '1' });
    expect(headersFor(rules, '/assets/site.css')).toEqual({ 'x-all': '1', 'x-assets': '2', 'x-css': '3' });
    expect(headersFor(rules, '/fr/about')).toEqual({ 'x-all': '1', 'x-about': '4' });
  });
  test('no rules compile to nothing (no cost on the hot path)', () => {
    expect(compileRules(null)).toBeUndefined();
    expect(compileRules({ redirects: [], headers: [] })).toBeUndefined();
  });
});

describe('deploy-time limits on what matching costs', () => {
  test.each([
    ['_redirects', 'a long path', `/${'a'.repeat(1024)} /b`, /line 1: the path is longer than 1024 bytes/],
    ['_redirects', 'many segments', `${'/a'.repeat(33)} /b`, /line 1: the path has more than 32 segments/],
    ['_redirects', 'many placeholders', `${Array.from({ length: 17 }, (_, i) => `/:p${i}`).join('')} /b`, /line 1: the path has more than 16 wildcards/],
    ['_redirects', 'a long target', `/a /${'b'.repeat(2048)}`, /line 1: the target is longer than 2048 bytes/],
    ['_redirects', 'many placeholders in the target', `/a/:x /${':x/'.repeat(17)}`, /line 1: the target uses more than 16 placeholders/],
    ['_redirects', 'a backslash target', '/a /\\evil.example 302', /line 1: the target must be a path/],
    ['_headers', 'a long path', `/${'a'.repeat(1024)}\n  X-A: 1`, /_headers line 1: the path is longer than 1024 bytes/],
    ['_headers', 'many stars', '/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b\n  X-A: 1', /_headers line 1: the path has more than 16 wildcards/],
  ])('%s: %s', (file, _name, text, message) => {
    const parse = file === '_redirects' ? parseRedirects : parseHeaders;
    expect(() => parse(text)).toThrow(RulesError);
    expect(() => parse(text)).toThrow(message);
  });

  test(`at most ${MAX_WHOLE_PATH_PATTERNS} _headers paths with a part between two *`, () => {
    const block = (p: string) => `${p}\n  X-A: 1`;
    const ok = Array.from({ length: MAX_WHOLE_PATH_PATTERNS }, (_, i) => block(`/*/v${i}/*`)).join('\n');
    expect(parseHeaders(ok)).toHaveLength(MAX_WHOLE_PATH_PATTERNS);
    expect(() => parseHeaders(`${ok}\n${block('/*.min.*')}`)).toThrow(`_headers line ${2 * MAX_WHOLE_PATH_PATTERNS + 1}: more than ${MAX_WHOLE_PATH_PATTERNS} paths with a part between two *`);
    // Prefixes, suffixes and placeholders are not counted.
    expect(parseHeaders([ok, block('/*'), block('/assets/*'), block('/*.css'), block('/:lang/*'), block('/*/:id')].join('\n'))).toHaveLength(MAX_WHOLE_PATH_PATTERNS + 5);
  });

  test('a large real-world pair of files is accepted', () => {
    const redirects = Array.from({ length: MAX_REDIRECTS }, (_, i) =>
      i % 3 === 0 ? `/blog/${i}/:year/:month/:slug /posts/:year/:month/:slug 301` : i % 3 === 1 ? `/docs/v${i}/* https://docs.example.com/v${i}/:splat 302` : `/old-page-${i}.html /new-page-${i} 308`,
    ).join('\n');
    expect(parseRedirects(redirects)).toHaveLength(MAX_REDIRECTS);
    const headers = Array.from({ length: MAX_HEADER_RULES }, (_, i) => `/section-${i}/*\n  Cache-Control: public, max-age=${i}\n  X-Robots-Tag: noindex`).join('\n');
    expect(parseHeaders(headers)).toHaveLength(MAX_HEADER_RULES);
  });
});

describe('the findings: a 47-byte _headers and an open redirect', () => {
  test('/*a*a*a*a*a*a*b against 100,000 a\'s: the right answer in linear work', () => {
    const rules = compileRules({ redirects: [], headers: parseHeaders('/*a*a*a*a*a*a*b\n  X-Probe: 1') })!;
    const before = matcherSteps.count;
    expect(headersFor(rules, `/${'a'.repeat(100_000)}`)).toBeUndefined();
    expect(headersFor(rules, `/${'a'.repeat(100_000)}b`)).toEqual({ 'x-probe': '1' });
    // As a regular expression, 74 a's took 8 s and 80 took 25 s.
    expect(matcherSteps.count - before).toBeLessThan(10 * 100_000);
  });

  test('/old/*  /:splat  301 answers with a path of the site, whatever the splat', () => {
    const rules = compileRules({ redirects: parseRedirects('/old/*  /:splat  301'), headers: [] })!;
    const location = (p: string) => [...matchRedirects(rules, p)][0]?.target;
    expect(location('/old/about')).toBe('/about');
    expect(location('/old//evil.example/login')).toBe('/evil.example/login');
    expect(location('/old/\\evil.example')).toBe('/evil.example');
    expect(location('/old/%2F%2Fevil.example')).toBe('/evil.example');
    expect(location('/old/%5Cevil.example')).toBe('/evil.example');
    expect(location('/old/%09/evil.example')).toBe('/evil.example');
  });
});

describe('stored rules are judged again when compiled (an archive may carry anything)', () => {
  const redirect = (from: unknown, to: unknown, status: unknown = 301) => ({ from, to, status, force: false }) as never;
  test('rules the parser would refuse are left out, the others kept', () => {
    const stored = {
      redirects: [
        redirect('/a', '//evil.example'),
        redirect('/b', 'javascript:alert(1)', 302),
        redirect('/c/*', 'https://proxy.example/:splat', 200),
        redirect(`/${'d'.repeat(5000)}`, '/x'),
        redirect('/e/*/f', '/x'),
        redirect(42, '/x'),
        redirect('/g', '/x', 418),
        redirect('/ok/:p', '/fine/:p'),
      ],
      headers: [
        { path: '/*', headers: [['set-cookie', 'sid=1']] },
        { path: '/*', headers: [['x-a', 'line\r\nbreak']] },
        { path: `/*${'a*'.repeat(40)}b`, headers: [['x-a', '1']] },
        { path: '/kept/*', headers: [['x-kept', '1']] },
        { path: null, headers: [] },
      ],
    } as unknown as SiteRules;
    const rules = compileRules(stored)!;
    expect(rules.redirects.map((r) => r.from)).toEqual(['/ok/:p']);
    expect(rules.headers).toHaveLength(1);
    expect(headersFor(rules, '/kept/x')).toEqual({ 'x-kept': '1' });
    expect(compileRules({ redirects: 'nonsense', headers: {} } as unknown as SiteRules)).toBeUndefined();
  });

  test(`only the first ${MAX_WHOLE_PATH_PATTERNS} whole-path _headers patterns are kept`, () => {
    const headers = Array.from({ length: MAX_WHOLE_PATH_PATTERNS + 4 }, (_, i) => ({ path: `/*/v${i}/*`, headers: [['x-v', String(i)]] as [string, string][] }));
    const rules = compileRules({ redirects: [], headers })!;
    expect(rules.headers).toHaveLength(MAX_WHOLE_PATH_PATTERNS);
  });
});
