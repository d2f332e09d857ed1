#!/usr/bin/env node
// `npm run bench:client`: what a page downloads for @hostbase/client. Builds the package, then
// bundles `import { createClient } from '@hostbase/client'` the way an app's bundler would (esbuild,
// minified, tree-shaken; it comes with the repository's tools) and measures gzip -9 and brotli
// (quality 11) against the 10 KB gzip budget. Without esbuild it falls back to the modules the
// entry loads, unminified. Exits 1 over the budget.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.join(root, 'packages/client');
const LIMIT = 10 * 1024;

execFileSync(process.execPath, [path.join(pkg, 'build.mjs')], { stdio: 'inherit' });

/** The entry and every module it imports at run time (relative imports only: it has no dependencies). */
function graph(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const src = fs.readFileSync(file, 'utf8');
  for (const m of src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/gm)) graph(path.resolve(path.dirname(file), m[1]), seen);
  for (const m of src.matchAll(/^\s*import\s*['"](\.[^'"]+)['"]/gm)) graph(path.resolve(path.dirname(file), m[1]), seen);
  return seen;
}

let esbuild;
try {
  esbuild = createRequire(import.meta.url)('esbuild');
} catch {
  /* not installed: the graph method below */
}

let bytes;
let what;
if (esbuild) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-bench-client-'));
  const entry = path.join(dir, 'app.js');
  fs.writeFileSync(entry, `import { createClient } from ${JSON.stringify(path.join(pkg, 'dist/index.js'))};\nglobalThis.hb = createClient;\n`);
  const out = esbuild.buildSync({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false });
  bytes = Buffer.from(out.outputFiles[0].contents);
  fs.rmSync(dir, { recursive: true, force: true });
  what = `import { createClient } from '@hostbase/client', bundled by esbuild ${esbuild.version} (minified, tree-shaken)`;
} else {
  const files = [...graph(path.join(pkg, 'dist/index.js'))];
  bytes = Buffer.concat(files.map((f) => fs.readFileSync(f)));
  what = `the modules the entry loads, unminified (no esbuild): ${files.map((f) => path.relative(pkg, f)).join(', ')}`;
}
const gzip = zlib.gzipSync(bytes, { level: 9 }).length;
const brotli = zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`@hostbase/client: ${what}`);
console.log(`  raw     ${String(bytes.length).padStart(7)} B  ${kb(bytes.length)}`);
console.log(`  gzip    ${String(gzip).padStart(7)} B  ${kb(gzip)}  (${((gzip / LIMIT) * 100).toFixed(0)} % of the ${kb(LIMIT)} limit)`);
console.log(`  brotli  ${String(brotli).padStart(7)} B  ${kb(brotli)}`);
if (gzip > LIMIT) {
  console.error(`over the limit: ${gzip} B gzip > ${LIMIT} B`);
  process.exit(1);
}
