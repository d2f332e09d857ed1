#!/usr/bin/env node
// Generates everything derived from openapi.yaml:
//   server/src/generated/openapi.d.ts   (openapi-typescript: types for handlers)
//   server/src/generated/operations.ts  (the list of operationIds, for the contract check)
//   server/src/generated/openapi.json   (the parsed document the server wires its routes from)
//   web/src/api/generated/**            (orval: the console's react-query hooks; scripts/gen-web.mjs)
//   shared/generated/contract.ts        (the schemas both the server and the console check by)
//   packages/client/src/generated/openapi.ts (openapi-typescript: the types of @hostbase/client,
//                                             its app-facing operations only)
// With --check it generates into a temp dir and fails when a committed file differs (stale).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const HEADER = '// DO NOT EDIT. Generated from openapi.yaml by `npm run gen`.\n';

function genServer(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const dts = path.join(outDir, 'openapi.d.ts');
  // Run from the output folder: openapi-typescript would otherwise load the repository's
  // redocly.yaml (the lint:api ruleset) and refuse to generate on any lint finding; generation
  // only needs a valid document (its default, Redocly's "minimal" rules).
  execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), [path.join(root, 'openapi.yaml'), '-o', dts, '--alphabetize'], { stdio: 'pipe', cwd: outDir });
  fs.writeFileSync(dts, HEADER + fs.readFileSync(dts, 'utf8'));
  const spec = YAML.parse(fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8'), { merge: true });
  // The server reads this at start instead of parsing the YAML: YAML.parse took ~210 ms and grew
  // the heap by ~40 MB of garbage that V8 kept as free pages (bench/upload-memory.ts);
  // JSON.parse takes ~3 ms. JSON has no comments: the warning is a key the server drops.
  fs.writeFileSync(path.join(outDir, 'openapi.json'), JSON.stringify({ '//': 'DO NOT EDIT. Generated from openapi.yaml by `npm run gen`.', document: spec }) + '\n');
  const ops = [];
  for (const [p, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op.operationId) continue;
      ops.push({ operationId: op.operationId, method: method.toUpperCase(), path: p, tag: (op.tags ?? [])[0] ?? '' });
    }
  }
  ops.sort((a, b) => a.operationId.localeCompare(b.operationId));
  fs.writeFileSync(
    path.join(outDir, 'operations.ts'),
    HEADER + `export const operations = ${JSON.stringify(ops, null, 2)} as const;\n\nexport type OperationId = (typeof operations)[number]['operationId'];\n`,
  );
}

// The component schemas whose rules the server and the console both apply (project types,
// password lengths, origin and site-URL patterns): stated once, in openapi.yaml.
const SHARED_SCHEMAS = ['ProjectType', 'NewPassword', 'Origin', 'SiteUrl', 'AuthSettings'];

/** The rules without their prose (the console bundles this file). */
function withoutDescriptions(value) {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'description').map(([k, v]) => [k, withoutDescriptions(v)]));
}

function genShared(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const spec = YAML.parse(fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8'));
  const picked = Object.fromEntries(SHARED_SCHEMAS.map((name) => {
    const schema = spec.components.schemas[name];
    if (!schema) throw new Error(`gen: components.schemas.${name} is not in openapi.yaml`);
    return [name, withoutDescriptions(schema)];
  }));
  fs.writeFileSync(
    path.join(outDir, 'contract.ts'),
    HEADER +
      '// Imported by the server and the console (no dependencies).\n' +
      `export const schemas = ${JSON.stringify(picked, null, 2)} as const;\n\n` +
      'export const PROJECT_TYPES = schemas.ProjectType.enum;\n' +
      'export type ProjectType = (typeof PROJECT_TYPES)[number];\n' +
      'export const PASSWORD_MIN = schemas.NewPassword.minLength;\n' +
      'export const MAX_ALLOWED_ORIGINS = schemas.AuthSettings.properties.allowed_origins.maxItems;\n',
  );
}

// @hostbase/client ships the types of the app-facing API only (end-user auth, storage, database
// rows): the operations under these prefixes and the components they reach. The whole platform's
// types were 395 kB of a 476 kB package that a page's developer never uses. A .ts of types only, so
// tsc emits its .d.ts into dist/ beside the rest (a .d.ts source would not be copied).
const CLIENT_PATHS = ['/auth/v1/', '/storage/v1/', '/db/v1/'];

/** The document cut down to the client's paths and every component they reference, transitively. */
function clientSpec(spec) {
  // The operations' prose (a page each, for the API reference) is left out; the schemas keep theirs.
  const brief = (item) => Object.fromEntries(Object.entries(item).map(([method, op]) => [method, op && typeof op === 'object' && !Array.isArray(op) ? { ...op, description: undefined } : op]));
  const paths = Object.fromEntries(Object.entries(spec.paths).filter(([p]) => CLIENT_PATHS.some((prefix) => p.startsWith(prefix))).map(([p, item]) => [p, brief(item)]));
  const kept = {};
  const visit = (value) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [k, v] of Object.entries(value)) {
      const m = k === '$ref' && typeof v === 'string' && /^#\/components\/([^/]+)\/(.+)$/.exec(v);
      if (m) {
        const [, kind, name] = m;
        kept[kind] ??= {};
        if (kept[kind][name]) continue;
        kept[kind][name] = spec.components[kind][name];
        visit(kept[kind][name]);
      } else visit(v);
    }
  };
  visit(paths);
  const components = Object.fromEntries(Object.keys(kept).sort().map((kind) => [kind, Object.fromEntries(Object.keys(kept[kind]).sort().map((n) => [n, kept[kind][n]]))]));
  return { openapi: spec.openapi, info: spec.info, servers: spec.servers, paths, components };
}

function genClient(outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, 'openapi.ts');
  const spec = YAML.parse(fs.readFileSync(path.join(root, 'openapi.yaml'), 'utf8'), { merge: true });
  const input = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-client-spec-')), 'client.json');
  fs.writeFileSync(input, JSON.stringify(clientSpec(spec)));
  // From the output folder, as for the server's types: not under the repository's redocly.yaml.
  execFileSync(path.join(root, 'node_modules/.bin/openapi-typescript'), [input, '-o', out, '--alphabetize'], { stdio: 'pipe', cwd: outDir });
  fs.rmSync(path.dirname(input), { recursive: true, force: true });
  fs.writeFileSync(out, HEADER + '// The app-facing operations only (' + CLIENT_PATHS.join(', ') + '), and the components they use.\n' + fs.readFileSync(out, 'utf8'));
}

function genWeb(outDir) {
  if (!fs.existsSync(path.join(root, 'scripts/gen-web.mjs'))) return;
  execFileSync(process.execPath, [path.join(root, 'scripts/gen-web.mjs'), '--out', outDir], { stdio: 'inherit', cwd: root });
}

function listFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath ?? d.path, d.name)))
    .sort();
}

function diffDirs(a, b) {
  const fa = listFiles(a), fb = listFiles(b);
  const problems = [];
  for (const f of new Set([...fa, ...fb])) {
    const pa = path.join(a, f), pb = path.join(b, f);
    if (!fs.existsSync(pa)) problems.push(`missing (not committed): ${f}`);
    else if (!fs.existsSync(pb)) problems.push(`extra (no longer generated): ${f}`);
    else if (fs.readFileSync(pa, 'utf8') !== fs.readFileSync(pb, 'utf8')) problems.push(`stale: ${f}`);
  }
  return problems;
}

const targets = [
  { name: 'server', dir: path.join(root, 'server/src/generated'), gen: genServer },
  { name: 'web', dir: path.join(root, 'web/src/api/generated'), gen: genWeb },
  { name: 'shared', dir: path.join(root, 'shared/generated'), gen: genShared },
  { name: 'client', dir: path.join(root, 'packages/client/src/generated'), gen: genClient },
];

if (!check) {
  for (const t of targets) t.gen(t.dir);
  console.log('generated:', targets.map((t) => path.relative(root, t.dir)).join(', '));
} else {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-gen-'));
  let failed = false;
  // The web hooks import their mutator by relative path, so they are checked in place by
  // gen-web.mjs --check (it generates beside the committed folder and compares).
  if (fs.existsSync(path.join(root, 'scripts/gen-web.mjs'))) {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/gen-web.mjs'), '--check'], { stdio: 'inherit', cwd: root });
    if (r.status !== 0) failed = true;
  }
  for (const t of targets.filter((x) => x.name !== 'web')) {
    const out = path.join(tmp, t.name);
    t.gen(out);
    const problems = diffDirs(t.dir, out);
    if (problems.length) {
      failed = true;
      console.error(`${t.name}: generated code is stale; run \`npm run gen\` and commit:\n  ` + problems.join('\n  '));
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  if (failed) process.exit(1);
  console.log('gen:check: generated code is up to date');
}
