// The site rules' path matcher (path-pattern.ts): what patterns match, that it agrees with the
// regular expressions it replaced on thousands of generated cases, and that its work grows
// linearly with the path (counted in steps, never timed) where those backtracked.
import { comparable, compilePath, matcherSteps, matchPath, readsWholePath, testPath, trimSlash } from './path-pattern';

const matches = (pattern: string, path: string) => testPath(compilePath(pattern), comparable(path));
const values = (pattern: string, path: string) => matchPath(compilePath(pattern), path, comparable(path));

/** The steps one match takes. */
function stepsOf(pattern: string, path: string): { steps: number; matched: boolean } {
  const p = compilePath(pattern);
  const folded = comparable(path);
  const before = matcherSteps.count;
  const matched = testPath(p, folded);
  return { steps: matcherSteps.count - before, matched };
}

describe('what a pattern matches', () => {
  test.each([
    ['/', '/', true],
    ['/', '/a', false],
    ['/about', '/about', true],
    ['/about', '/About/', true],
    ['/about', '/about/x', false],
    ['/about/', '/about', true],
    ['/assets/*', '/assets', true],
    ['/assets/*', '/assets/', true],
    ['/assets/*', '/assets/a/b.js', true],
    ['/assets/*', '/assetsx', false],
    ['/*', '/', true],
    ['/*', '/anything/at/all', true],
    ['/*.css', '/site.css', true],
    ['/*.css', '/a/b/site.css', true],
    ['/*.css', '/site.css.map', false],
    ['/a*b', '/ab', true],
    ['/a*b', '/a/x/b', true],
    ['/a**b', '/axb', true],
    ['/:lang/about', '/fr/about', true],
    ['/:lang/about', '//about', false],
    ['/:lang/about', '/fr/x/about', false],
    ['/:lang/*', '/fr', true],
    ['/:lang/*', '/fr/a/b', true],
    ['/*/:id', '/a/b/42', true],
    ['/*/:id', '/a/', false],
    ['/*/:id/edit*', '/x/y/42/edit', true],
    ['/*/:id/edit*', '/x/y/42/editor', true],
    ['/*/:id/edit*', '/x/42/y/edit', true],
    ['/*/:id/edit*', '/42/edit', false],
    ['/*/:a/:b/*.js', '/x/p/q/r.js', true],
    ['/*/:a/:b/*.js', '/p/q/r.js', false],
    ['/static/*/*.woff2', '/static/fonts/a.woff2', true],
    ['/static/*/*.woff2', '/static/a.woff2', false],
    ['/x:y/*', '/x:y/z', true],
  ])('%s ~ %s: %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected);
  });

  test('placeholder values and the splat come from the path as sent (case kept, still encoded)', () => {
    expect(values('/blog/:year/:slug', '/Blog/2024/Hello%20World')).toEqual(['2024', 'Hello%20World']);
    expect(values('/app/*', '/app')).toEqual(['']);
    expect(values('/app/*', '/app/')).toEqual(['']);
    expect(values('/app/*', '/app/A/b/')).toEqual(['A/b']);
    expect(values('/old/*', '/old//evil.example/login')).toEqual(['/evil.example/login']);
    expect(values('/:a/:b/*', '/x/y')).toEqual(['x', 'y', '']);
    expect(values('/blog/:slug', '/blog')).toBeUndefined();
  });

  test('trailing slashes are trimmed by a loop, whatever their number', () => {
    expect(trimSlash('/a///')).toBe('/a');
    expect(trimSlash('///')).toBe('/');
    expect(trimSlash('/')).toBe('/');
    const long = `/${'/'.repeat(200_000)}a/`;
    expect(trimSlash(long)).toBe(long.slice(0, -1));
  });

  test('which patterns read the whole path', () => {
    expect(['/*', '/assets/*', '/*.css', '/:lang/*', '/*/:id', '/a*b'].map((p) => readsWholePath(compilePath(p)))).toEqual([false, false, false, false, false, false]);
    expect(['/*a*b', '/*/:id/*', '/*/assets/*', '/*.min.*'].map((p) => readsWholePath(compilePath(p)))).toEqual([true, true, true, true]);
  });
});

// ---- agreement with the regular expressions it replaced -----------------------------------------

const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
const regexTrim = (p: string) => (p.length > 1 && p.endsWith('/') ? p.replace(/\/+$/, '') || '/' : p);
/** The former compilePattern, as the reference (test-generated patterns only, kept short). */
function reference(pattern: string): RegExp {
  const segments = regexTrim(pattern).split('/');
  let src = '';
  segments.forEach((s, i) => {
    if (i === 0) return;
    if (s === '*' && i === segments.length - 1) src += '(?:/(.*))?';
    else if (/^:[A-Za-z_][A-Za-z0-9_]*$/.test(s)) src += '/([^/]+)';
    else src += '/' + s.split('*').map(escape).join('.*');
  });
  return new RegExp(`^${src || '/'}$`, 'i');
}

function generator(seed: number) {
  let s = seed;
  const next = (n: number) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
  const pick = <T>(a: T[]): T => a[next(a.length)];
  return { next, pick };
}

test.each([1, 2, 3])('agrees with the former regular expressions on generated patterns and paths (seed %i)', (seed) => {
  const { next, pick } = generator(seed);
  let agreed = 0;
  let matched = 0;
  for (let n = 0; n < 4000; n++) {
    let pattern = '';
    for (let i = 0, segs = 1 + next(6); i < segs; i++) {
      const kind = next(6);
      pattern += '/' + (kind <= 1 ? `:p${i}` : kind === 2 ? '*' : Array.from({ length: next(4) }, () => pick(['a', 'B', '*', '*', '.'])).join(''));
    }
    if (next(5) === 0) pattern += '/';
    const re = reference(pattern);
    const compiled = compilePath(pattern);
    for (let k = 0; k < 12; k++) {
      let path = '';
      for (let i = 0, segs = next(9); i < segs; i++) path += '/' + Array.from({ length: next(4) }, () => pick(['a', 'b', 'A', '.'])).join('');
      if (path === '' || next(6) === 0) path += '/';
      const m = re.exec(regexTrim(path));
      const want = m ? JSON.stringify(m.slice(1).map((v) => v ?? '')) : 'no match';
      const captured = compiled.chunks.length === 1 ? matchPath(compiled, path, comparable(path)) : undefined;
      const got = compiled.chunks.length > 1 ? (testPath(compiled, comparable(path)) === (m !== null) ? want : 'differs') : captured ? JSON.stringify(captured) : 'no match';
      if (got !== want) expect({ pattern, path, got }).toEqual({ pattern, path, got: want });
      agreed += 1;
      if (m) matched += 1;
    }
  }
  expect(agreed).toBe(48_000);
  expect(matched).toBeGreaterThan(5_000); // the cases are not all misses
});

// ---- linear work ----------------------------------------------------------------------------------

describe('the work grows with the path, not with its powers', () => {
  // Each of these backtracked as a regular expression; `/*a*a*a*a*a*a*b` against 74 a's took 8 s.
  const cases: [string, string, (n: number) => string, (n: number) => string][] = [
    ['many stars', '/*a*a*a*a*a*a*b', (n) => `/${'a'.repeat(n)}`, (n) => `/${'a'.repeat(n)}b`],
    ['a long literal between stars (KMP)', `/*${'a'.repeat(250)}b${'a'.repeat(250)}*`, (n) => `/${'a'.repeat(n)}`, (n) => `/${'a'.repeat(n)}b${'a'.repeat(250)}`],
    ['a placeholder between stars (segment scan)', `/*/:p/${'a/'.repeat(20)}b*`, (n) => '/a'.repeat(n / 2), (n) => `${'/a'.repeat(n / 2)}/b`],
    ['stars and a trailing /*', '/*a*a*a*b/*', (n) => `/${'a'.repeat(n)}/x`, (n) => `/${'a'.repeat(n)}b/x`],
  ];
  test.each(cases)('%s', (_name, pattern, miss, hit) => {
    const small = stepsOf(pattern, miss(10_000));
    const big = stepsOf(pattern, miss(100_000));
    expect(small.matched).toBe(false);
    expect(big.matched).toBe(false);
    // Ten times the path, about ten times the steps; and a few steps per character at most.
    expect(big.steps).toBeLessThanOrEqual(11 * small.steps);
    expect(big.steps).toBeLessThanOrEqual(6 * 100_000 + 10 * pattern.length);
    expect(stepsOf(pattern, hit(100_000)).matched).toBe(true);
  });

  test('a redirect pattern compares its own characters, however long the path', () => {
    const before = matcherSteps.count;
    expect(values('/blog/:slug/*', `/news/${'x'.repeat(100_000)}`)).toBeUndefined();
    expect(matcherSteps.count - before).toBeLessThan(20);
  });
});
