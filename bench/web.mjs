#!/usr/bin/env node
// The console's weight and a cold landing load in headless Chromium (what a first visit costs).
//
// 1. The build: each file raw, gzip and brotli (the copies web/precompress.mts wrote), and the
//    JavaScript the landing page (/) loads before it renders.
// 2. Cold loads of / in Debian's Chromium (playwright-core, never a downloaded browser), a fresh
//    browser context each time, side by side:
//      hostbase     the real server (tsx server/src/server.ts, PGlite) serving web/dist compressed
//      identity     the same build, no compression and no prerendered pages (a plain static
//                   server answering the shell, as before prerendering
//                   and compression)
//      baseline     --baseline <dir>: another build (e.g. main's) served the same plain way
//    Per target: bytes over the wire (JavaScript, total; headers included, as Chromium counts
//    them), the time until the hero's text is painted, first contentful paint, and the layout
//    shift (CLS) by the end of the load. Medians of --runs (5) loads.
// 3. With --lighthouse <lighthouse-cli.js> (Lighthouse from npm, installed outside the project:
//    `npm i lighthouse` in a scratch dir), its mobile performance score, FCP, LCP, TBT and CLS for
//    / and /pricing on the hostbase server, with the same Chromium (CHROME_PATH).
// Goals: < 130 KB of JavaScript over the wire and the hero painted < 300 ms (exit 1 when missed).
//
//   node bench/web.mjs [--build] [--runs 5] [--baseline /tmp/web-before] [--lighthouse path/to/cli.js]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const GOAL_JS_BYTES = 130 * 1024;
const GOAL_HERO_MS = 300;
const HERO_SELECTOR = '.hero-title';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'web/dist');
const manifestPath = join(dist, '.vite/manifest.json');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const runs = Number(arg('--runs', '5'));
const baselineDir = arg('--baseline');
const lighthouseCli = arg('--lighthouse');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (process.argv.includes('--build') || !existsSync(manifestPath)) {
  const r = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

// ---- 1. the build ----

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === '.vite') return [];
    return statSync(p).isDirectory() ? walk(p) : [relative(dist, p)];
  });
}
const sizes = new Map();
function measure(file) {
  if (!sizes.has(file)) {
    const buf = readFileSync(join(dist, file));
    const copy = (suffix, make) => (existsSync(join(dist, file + suffix)) ? statSync(join(dist, file + suffix)).size : make(buf).length);
    sizes.set(file, {
      raw: buf.length,
      gzip: copy('.gz', (b) => gzipSync(b, { level: 9 })),
      br: copy('.br', (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
    });
  }
  return sizes.get(file);
}
const files = walk(dist).filter((f) => !/\.(br|gz)$/.test(f));
const rows = files.map((f) => ({ f, ...measure(f) })).sort((a, b) => b.raw - a.raw);
const pad = Math.max(...rows.map((r) => r.f.length));
console.log('Built assets (web/dist), largest first');
console.log(`${'file'.padEnd(pad)}  ${'raw'.padStart(9)}  ${'gzip'.padStart(9)}  ${'br'.padStart(9)}`);
for (const r of rows.slice(0, 12)) console.log(`${r.f.padEnd(pad)}  ${kb(r.raw).padStart(9)}  ${kb(r.gzip).padStart(9)}  ${kb(r.br).padStart(9)}`);
if (rows.length > 12) console.log(`... and ${rows.length - 12} smaller files`);

// The landing page loads the entry chunk and its static imports; its route is in the entry.
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const initial = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const imp of chunk.imports ?? []) collect(imp);
}
collect('index.html');
const landingJs = [...initial].filter((f) => f.endsWith('.js'));
const sum = (key) => landingJs.reduce((a, f) => a + measure(f)[key], 0);
console.log(`\nLanding page (/) initial JavaScript: ${landingJs.length} files, ${kb(sum('raw'))} raw, ${kb(sum('gzip'))} gzip, ${kb(sum('br'))} brotli`);

// ---- 2. cold loads in Chromium ----

function freePort() {
  return new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.json': 'application/json' };

/** A build served as it was before prerendering and compression: files as they are, index.html for client routes. */
async function plainServer(dir) {
  const port = await freePort();
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    let file = join(dir, url);
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory()) file = join(dir, 'index.html');
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((ok) => server.close(ok)) };
}

/** The real platform from its sources, on PGlite in a throw-away data dir. */
async function hostbaseServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'hostbase-bench-web-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(join(root, 'node_modules/.bin/tsx'), [join(root, 'server/src/server.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    stop: () =>
      new Promise((ok) => {
        child.once('exit', () => {
          rmSync(dataDir, { recursive: true, force: true });
          ok();
        });
        child.kill('SIGTERM');
      }),
  };
}

// Runs in the page before its scripts: when the hero's title is first painted (Element Timing: the
// probe marks the title as it enters the DOM, before the frame that paints it, so any build can be
// measured), first contentful paint, and the layout shifts.
const PROBE = `(() => {
  const probe = (window.__probe = { hero: null, fcp: null, cls: 0 });
  const mark = () => {
    for (const el of document.querySelectorAll(${JSON.stringify(HERO_SELECTOR)})) el.setAttribute('elementtiming', 'hero');
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.identifier === 'hero' && probe.hero === null) probe.hero = e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') probe.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) probe.cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
})();`;

async function coldLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await page.addInitScript(PROBE);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const types = new Map();
  const encodings = new Map();
  let js = 0;
  let total = 0;
  cdp.on('Network.responseReceived', (e) => {
    types.set(e.requestId, e.type);
    const enc = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1] ?? 'identity';
    if (e.type === 'Script') encodings.set(enc, (encodings.get(enc) ?? 0) + 1);
  });
  cdp.on('Network.loadingFinished', (e) => {
    total += e.encodedDataLength;
    if (types.get(e.requestId) === 'Script') js += e.encodedDataLength;
  });
  await page.goto(url + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => globalThis.__probe && globalThis.__probe.hero !== null, null, { timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  // Late shifts (a lazy page replacing a spinner) count too.
  await page.waitForTimeout(300);
  const probe = await page.evaluate(() => globalThis.__probe);
  await context.close();
  return { js, total, hero: probe.hero, fcp: probe.fcp, cls: probe.cls, encodings: [...encodings.keys()].join('+') };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Lighthouse's mobile preset (simulated throttling) on a page; null when it can't run. */
function lighthouse(url) {
  const r = spawnSync(
    process.execPath,
    [resolve(lighthouseCli), url, '--only-categories=performance', '--chrome-flags=--headless=new --no-sandbox --disable-gpu', '--output=json', '--output-path=stdout', '--quiet'],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (r.status !== 0) {
    console.error(`lighthouse failed on ${url}: ${r.stderr.slice(-500)}`);
    return null;
  }
  const report = JSON.parse(r.stdout);
  const a = report.audits;
  return { score: Math.round(report.categories.performance.score * 100), fcp: a['first-contentful-paint'].displayValue, lcp: a['largest-contentful-paint'].displayValue, tbt: a['total-blocking-time'].displayValue, cls: a['cumulative-layout-shift'].numericValue, version: report.lighthouseVersion };
}

const audits = [];

async function benchTarget(browser, name, server, withLighthouse = false) {
  try {
    if (withLighthouse && lighthouseCli) for (const page of ['/', '/pricing']) audits.push({ page, ...lighthouse(server.url + page) });
    await coldLoad(browser, server.url); // warms the server's file cache and Chromium's, not the page's
    const loads = [];
    for (let i = 0; i < runs; i++) loads.push(await coldLoad(browser, server.url));
    return {
      name,
      js: median(loads.map((l) => l.js)),
      total: median(loads.map((l) => l.total)),
      hero: median(loads.map((l) => l.hero)),
      fcp: median(loads.map((l) => l.fcp)),
      cls: Math.max(...loads.map((l) => l.cls)),
      encoding: loads[0].encodings,
    };
  } finally {
    await server.stop();
  }
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic'],
});
const results = [];
try {
  if (baselineDir) results.push(await benchTarget(browser, `baseline (${baselineDir}, identity)`, await plainServer(resolve(baselineDir))));
  results.push(await benchTarget(browser, 'this build, plain (shell, identity)', await plainServer(dist)));
  results.push(await benchTarget(browser, 'this build, hostbase server', await hostbaseServer(), true));
} finally {
  await browser.close();
}

console.log(`\nCold load of / in headless Chromium (${chromiumPath}), loopback, median of ${runs} loads (CLS: the worst)`);
const header = ['target', 'JS over wire', 'total over wire', 'hero painted', 'FCP', 'CLS', 'JS encoding'];
const table = results.map((r) => [r.name, kb(r.js), kb(r.total), `${r.hero.toFixed(0)} ms`, `${r.fcp.toFixed(0)} ms`, r.cls.toFixed(3), r.encoding]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const row of table) console.log(line(row));

if (audits.length) {
  console.log(`\nLighthouse ${audits.find((a) => a.version)?.version ?? ''} (mobile preset), hostbase server`);
  for (const a of audits) console.log(a.score === undefined ? `${a.page}: did not run` : `${a.page.padEnd(9)} performance ${a.score}  FCP ${a.fcp}  LCP ${a.lcp}  TBT ${a.tbt}  CLS ${a.cls.toFixed(3)}`);
}

const now = results[results.length - 1];
const identity = results.find((r) => r.name === 'this build, plain (shell, identity)');
console.log(`\nhostbase vs identity: JavaScript ${(now.js / identity.js).toFixed(2)}x the bytes, hero ${(now.hero / identity.hero).toFixed(2)}x the time`);
const misses = [];
if (now.js >= GOAL_JS_BYTES) misses.push(`JavaScript over the wire ${kb(now.js)} (goal < ${kb(GOAL_JS_BYTES)})`);
if (now.hero >= GOAL_HERO_MS) misses.push(`hero painted at ${now.hero.toFixed(0)} ms (goal < ${GOAL_HERO_MS} ms)`);
if (now.cls >= 0.1) misses.push(`CLS ${now.cls.toFixed(3)} (goal < 0.1)`);
if (misses.length) {
  console.error(`Goals missed: ${misses.join('; ')}`);
  process.exit(1);
}
console.log(`Goals met: JavaScript < ${kb(GOAL_JS_BYTES)}, hero < ${GOAL_HERO_MS} ms, CLS < 0.1`);
