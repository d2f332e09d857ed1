// Site rules matching bench (`npm run bench:rules`). Prints figures only, asserts nothing.
//  1. A realistic rule set (12 _headers blocks, 300 _redirects rules) over 1,000 realistic paths:
//     the matcher (path-pattern.ts, redirect-target.ts) against the regular expressions it
//     replaced (rebuilt here as they were), both compiled once, measured in alternation
//     BENCH_ROUNDS times, medians compared. This is the cost of a route-cache miss
//     (static-site.ts memoises the answer per path).
//  2. The finding's pattern on growing paths: the matcher's time and steps; the old regular
//     expression only on short paths (it grows as n^6).
//  3. The slowest files the deploy-time limits allow against a path as long as Node's 16 KB
//     header limit lets through: time per request (a route-cache miss), median of 5.
// Run through tsx, each call from site-rules.ts into path-pattern.ts goes through an import getter
// (about doubling the matcher's side); production's tsc build has plain property reads, closer to
// a bundle: `npx esbuild bench/site-rules.ts --bundle --platform=node --outfile=/tmp/b.js && node /tmp/b.js`.
import { compileRules, headersFor, matchRedirects, parseHeaders, parseRedirects } from '../server/src/modules/hosting/deploy/site-rules';
import { matcherSteps } from '../server/src/modules/hosting/deploy/path-pattern';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MS = Number(process.env.BENCH_MS ?? 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const HEADERS = [
  '/*\n  X-Frame-Options: DENY',
  '/assets/*\n  Cache-Control: public, max-age=31536000, immutable',
  '/*.css\n  X-Kind: css',
  '/*.js\n  X-Kind: js',
  '/fonts/*\n  Access-Control-Allow-Origin: *',
  '/:lang/about\n  X-About: 1',
  '/index.html\n  Cache-Control: no-cache',
  '/blog/*\n  X-Robots-Tag: index',
  '/api/*\n  X-Robots-Tag: noindex',
  '/*.html\n  X-Kind: html',
  '/static/*/*.woff2\n  X-Kind: font',
  '/*/:id/edit\n  X-Edit: 1',
].join('\n');
const REDIRECTS = Array.from({ length: 300 }, (_, i) =>
  i % 3 === 0 ? `/old-${i} /new-${i} 301` : i % 3 === 1 ? `/blog/${i}/:year/:slug /posts/:year/:slug 301` : `/docs/v${i}/* https://docs.example.com/v${i}/:splat 302`,
)
  .concat(['/app/* /app.html 200'])
  .join('\n');
const PATHS = Array.from({ length: 1000 }, (_, i) =>
  [
    `/assets/index-${i.toString(16)}a1b2c3.js`,
    `/blog/${(i % 300) - ((i % 300) % 3) + 1}/2024/post-${i}`,
    `/fr/about`,
    `/docs/v${(i % 300) - ((i % 300) % 3) + 2}/guide/page-${i}`,
    `/old-${(i % 300) - ((i % 300) % 3)}`,
    `/static/fonts/inter-${i}.woff2`,
    `/app/settings/${i}`,
    `/nothing/here/${i}.html`,
  ][i % 8],
);

// ---- the regular expressions as they were ----------------------------------------------------------
const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
const oldTrim = (p: string) => (p.length > 1 && p.endsWith('/') ? p.replace(/\/+$/, '') || '/' : p);
const PLACEHOLDER = /:([A-Za-z_][A-Za-z0-9_]*)/g;
function oldCompile(pattern: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const segments = oldTrim(pattern).split('/');
  let src = '';
  segments.forEach((s, i) => {
    if (i === 0) return;
    if (s === '*' && i === segments.length - 1) {
      names.push('splat');
      src += '(?:/(.*))?';
    } else if (/^:[A-Za-z_][A-Za-z0-9_]*$/.test(s)) {
      names.push(s.slice(1));
      src += '/([^/]+)';
    } else src += '/' + s.split('*').map(escape).join('.*');
  });
  return { re: new RegExp(`^${src || '/'}$`, 'i'), names };
}
function oldRules(headers: string, redirects: string) {
  return {
    headers: parseHeaders(headers).map((h) => ({ re: oldCompile(h.path).re, headers: h.headers })),
    redirects: parseRedirects(redirects).map((r) => ({ ...r, ...oldCompile(r.from) })),
  };
}
function oldMatch(rules: ReturnType<typeof oldRules>, urlPath: string): [Record<string, string> | undefined, string | undefined] {
  const p = oldTrim(urlPath);
  let out: Record<string, string> | undefined;
  for (const h of rules.headers) {
    if (!h.re.test(p)) continue;
    out ??= {};
    for (const [k, v] of h.headers) out[k] = v;
  }
  for (const r of rules.redirects) {
    const m = r.re.exec(p);
    if (!m) continue;
    const values = new Map(r.names.map((n, i) => [n, m[i + 1] ?? '']));
    return [out, r.to.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole)];
  }
  return [out, undefined];
}

// ---- the matcher ------------------------------------------------------------------------------------
const compiled = compileRules({ headers: parseHeaders(HEADERS), redirects: parseRedirects(REDIRECTS) })!;
function newMatch(urlPath: string): [Record<string, string> | undefined, string | undefined] {
  const extra = headersFor(compiled, urlPath);
  for (const { target } of matchRedirects(compiled, urlPath)) return [extra, target];
  return [extra, undefined];
}
const old = oldRules(HEADERS, REDIRECTS);

/** ns per path over MS milliseconds. */
function measure(match: (p: string) => unknown): number {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < MS) {
    for (const p of PATHS) match(p);
    n += PATHS.length;
  }
  return ((performance.now() - start) * 1e6) / n;
}

function main() {
  // Same answers first.
  for (const p of PATHS) {
    const a = JSON.stringify(newMatch(p));
    const b = JSON.stringify(oldMatch(old, p));
    if (a !== b) throw new Error(`answers differ for ${p}: ${a} vs ${b}`);
  }
  const oldNs: number[] = [];
  const newNs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    oldNs.push(measure((p) => oldMatch(old, p)));
    newNs.push(measure(newMatch));
  }
  console.log(`1. ${PATHS.length} realistic paths, 12 header blocks + 301 redirect rules, ${ROUNDS} alternated rounds of ${MS} ms (node ${process.version})`);
  console.log(`   regular expressions: median ${median(oldNs).toFixed(0)} ns per path (${oldNs.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`   matcher:             median ${median(newNs).toFixed(0)} ns per path (${newNs.map((x) => x.toFixed(0)).join(', ')})`);

  console.log('2. /*a*a*a*a*a*a*b against "/" + n a\'s (no match)');
  const pathological = compileRules({ headers: parseHeaders('/*a*a*a*a*a*a*b\n  X-Probe: 1'), redirects: [] })!;
  const oldRe = oldCompile('/*a*a*a*a*a*a*b').re;
  for (const n of [20, 30, 40]) {
    const p = `/${'a'.repeat(n)}`;
    const t = performance.now();
    oldRe.test(p);
    console.log(`   regular expression, n=${n}: ${(performance.now() - t).toFixed(1)} ms`);
  }
  // "/" + n a's fails at once (the path does not end in b); "/" + n c's + "b" makes the matcher
  // look for the a's through the whole path: its slowest case for this pattern.
  for (const n of [80, 16_000, 1_000_000]) {
    for (const p of [`/${'a'.repeat(n)}`, `/${'c'.repeat(n)}b`]) {
      const before = matcherSteps.count;
      const t = performance.now();
      headersFor(pathological, p);
      console.log(`   matcher, ${p.slice(0, 3)}…${p.slice(-2)} (${p.length} characters): ${(performance.now() - t).toFixed(3)} ms, ${matcherSteps.count - before} steps`);
    }
  }

  console.log('3. the slowest rules within the limits, one 16,000-character path (median of 5)');
  const n = 16_000;
  const worst: [string, string, string, string][] = [
    // 16 paths with a placeholder between two * (a segment scan over 8,000 segments) + 484 more
    ['_headers: 16 whole-path patterns + 484 placeholder paths', [
      ...Array.from({ length: 16 }, (_, i) => `/*/:p/${'a/'.repeat(28)}b${i}*\n  X-A: 1`),
      ...Array.from({ length: 484 }, (_, i) => `/:a/:b/:c/:d/:e/:f/:g/:h/x${i}\n  X-B: 1`),
    ].join('\n'), '', '/a'.repeat(n / 2)],
    ['_headers: 16 long literals between stars (KMP)', Array.from({ length: 16 }, (_, i) => `/*${'a'.repeat(250)}b${'a'.repeat(250)}*/${i}*\n  X-A: 1`).join('\n'), '', `/${'a'.repeat(n)}`],
    ['_redirects: 1,000 rules of 15 placeholders', '', Array.from({ length: 1000 }, (_, i) => `${'/:p'.repeat(15)}/x${i} /y`).join('\n'), `/${('a'.repeat(1000) + '/').repeat(15)}y`],
  ];
  for (const [label, headers, redirects, p] of worst) {
    const rules = compileRules({ headers: headers ? parseHeaders(headers) : [], redirects: redirects ? parseRedirects(redirects) : [] })!;
    const times: number[] = [];
    let steps = 0;
    for (let k = 0; k < 5; k++) {
      const before = matcherSteps.count;
      const t = performance.now();
      headersFor(rules, p);
      for (const m of matchRedirects(rules, p)) if (m) break;
      times.push(performance.now() - t);
      steps = matcherSteps.count - before;
    }
    console.log(`   ${label}: ${median(times).toFixed(2)} ms, ${steps} steps`);
  }
}

main();
