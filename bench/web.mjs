#!/usr/bin/env node
// Built web assets, raw and gzip, and the JavaScript the landing page (/) loads before it renders.
// Budget: the landing page's initial JS must stay within 200 KB gzip (exit 1 when over).
//   node bench/web.mjs            uses web/dist (builds it first when missing)
//   node bench/web.mjs --build    always rebuilds
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP = 200 * 1024;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'web/dist');
const manifestPath = join(dist, '.vite/manifest.json');

if (process.argv.includes('--build') || !existsSync(manifestPath)) {
  const r = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const kb = (n) => `${(n / 1024).toFixed(2)} KB`;
const sizes = new Map();
function measure(file) {
  if (!sizes.has(file)) {
    const buf = readFileSync(join(dist, file));
    sizes.set(file, { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
  }
  return sizes.get(file);
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === '.vite') return [];
    return statSync(p).isDirectory() ? walk(p) : [relative(dist, p)];
  });
}

const files = walk(dist).sort();
const rows = files.map((f) => ({ f, ...measure(f) })).sort((a, b) => b.gzip - a.gzip);
const pad = Math.max(...rows.map((r) => r.f.length));
console.log('Built assets (web/dist)');
console.log(`${'file'.padEnd(pad)}  ${'raw'.padStart(11)}  ${'gzip'.padStart(11)}`);
for (const r of rows) console.log(`${r.f.padEnd(pad)}  ${kb(r.raw).padStart(11)}  ${kb(r.gzip).padStart(11)}`);
const tot = (ext) => rows.filter((r) => r.f.endsWith(ext)).reduce((a, r) => ({ raw: a.raw + r.raw, gzip: a.gzip + r.gzip }), { raw: 0, gzip: 0 });
for (const ext of ['.js', '.css']) {
  const t = tot(ext);
  console.log(`all ${ext.slice(1)}: ${kb(t.raw)} raw, ${kb(t.gzip)} gzip`);
}

// The landing page loads the entry chunk with its static imports, then the Landing route chunk
// with its static imports (React.lazy, requested at once for "/").
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const initial = new Set();
function collect(key) {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const imp of chunk.imports ?? []) collect(imp);
}
collect('index.html');
collect('src/features/marketing/Landing.tsx');
const landingJs = [...initial].filter((f) => f.endsWith('.js'));
const landing = landingJs.reduce((a, f) => ({ raw: a.raw + measure(f).raw, gzip: a.gzip + measure(f).gzip }), { raw: 0, gzip: 0 });
console.log('\nLanding page (/) initial JS:');
for (const f of landingJs) console.log(`  ${f}  ${kb(measure(f).raw)} raw, ${kb(measure(f).gzip)} gzip`);
console.log(`  total: ${kb(landing.raw)} raw, ${kb(landing.gzip)} gzip (budget ${kb(BUDGET_GZIP)} gzip, ${((landing.gzip / BUDGET_GZIP) * 100).toFixed(1)}% used)`);
if (landing.gzip > BUDGET_GZIP) {
  console.error('Landing page initial JS is over budget');
  process.exit(1);
}
