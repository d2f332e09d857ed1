#!/usr/bin/env node
// `npm run bench:client`: what a page downloads for @hostbase/client. Builds the package (tsc), then
// measures the modules `import ... from '@hostbase/client'` loads (dist/index.js and what it imports),
// gzip -9 and brotli (quality 11), against the 15 KB gzip budget. Exits 1 over the budget.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = path.join(root, 'packages/client');
const LIMIT = 15 * 1024;

execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', path.join(pkg, 'tsconfig.json')], { stdio: 'inherit' });

/** The entry and every module it imports at run time (relative imports only: it has no dependencies). */
function graph(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const src = fs.readFileSync(file, 'utf8');
  for (const m of src.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]/gm)) graph(path.resolve(path.dirname(file), m[1]), seen);
  for (const m of src.matchAll(/^\s*import\s*['"](\.[^'"]+)['"]/gm)) graph(path.resolve(path.dirname(file), m[1]), seen);
  return seen;
}

const files = [...graph(path.join(pkg, 'dist/index.js'))];
const all = Buffer.concat(files.map((f) => fs.readFileSync(f)));
const gzip = zlib.gzipSync(all, { level: 9 }).length;
const brotli = zlib.brotliCompressSync(all, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`@hostbase/client (${files.map((f) => path.relative(pkg, f)).join(', ')})`);
console.log(`  raw     ${String(all.length).padStart(7)} B  ${kb(all.length)}`);
console.log(`  gzip    ${String(gzip).padStart(7)} B  ${kb(gzip)}  (${((gzip / LIMIT) * 100).toFixed(0)} % of the ${kb(LIMIT)} limit)`);
console.log(`  brotli  ${String(brotli).padStart(7)} B  ${kb(brotli)}`);
if (gzip > LIMIT) {
  console.error(`over the limit: ${gzip} B gzip > ${LIMIT} B`);
  process.exit(1);
}
