#!/usr/bin/env node
// Generates the web's react-query hooks from openapi.yaml with orval (web/orval.config.ts).
//   node scripts/gen-web.mjs             -> web/src/api/generated/
//   node scripts/gen-web.mjs --out DIR   -> DIR (or env OUT_DIR); imports of the mutator are
//                                           relative, so only a folder at the same depth as
//                                           web/src/api/generated/ gives byte-identical files
//   node scripts/gen-web.mjs --check     -> generates into web/src/api/.generated-check/, compares
//                                           with web/src/api/generated/, exits 1 when stale
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'web');
const committed = join(webDir, 'src/api/generated');
const args = process.argv.slice(2);
const check = args.includes('--check');
const outIdx = args.indexOf('--out');
let outDir = outIdx >= 0 ? args[outIdx + 1] : process.env.OUT_DIR;
if (outIdx >= 0 && !outDir) {
  console.error('gen-web: --out needs a folder');
  process.exit(2);
}
if (check) outDir = join(webDir, 'src/api/.generated-check');
const absOut = outDir ? resolve(process.cwd(), outDir) : committed;

function run() {
  const env = { ...process.env, OUT_DIR: relative(webDir, absOut) || '.' };
  const bin = join(root, 'node_modules/.bin/orval');
  const res = spawnSync(bin, ['--config', join(webDir, 'orval.config.ts')], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (res.status !== 0) {
    process.stdout.write(res.stdout ?? '');
    process.stderr.write(res.stderr ?? '');
    console.error(`gen-web: orval failed (exit ${res.status})`);
    process.exit(res.status ?? 1);
  }
  // orval prints spec-validation warnings on stdout; keep them visible but short.
  const warnings = (res.stdout ?? '').split('\n').filter((l) => l.trim().startsWith('#/'));
  if (warnings.length) console.warn(`gen-web: orval reported ${warnings.length} spec-validation warnings (run orval directly to see them)`);
}

function listFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listFiles(p, base));
    else out.push(relative(base, p));
  }
  return out.sort();
}

run();
if (!check) {
  console.log(`gen-web: hooks written to ${relative(root, absOut)}`);
  process.exit(0);
}
try {
  const a = listFiles(committed);
  const b = listFiles(absOut);
  const stale = [];
  for (const f of new Set([...a, ...b])) {
    const pa = join(committed, f);
    const pb = join(absOut, f);
    if (!existsSync(pa)) stale.push(`missing: ${f}`);
    else if (!existsSync(pb)) stale.push(`extra: ${f}`);
    else if (readFileSync(pa, 'utf8') !== readFileSync(pb, 'utf8')) stale.push(`differs: ${f}`);
  }
  if (stale.length) {
    console.error('gen-web: web/src/api/generated is stale; run `npm run gen`.');
    for (const s of stale.slice(0, 50)) console.error('  ' + s);
    process.exitCode = 1;
  } else console.log('gen-web: web/src/api/generated is up to date');
} finally {
  rmSync(absOut, { recursive: true, force: true });
}
