// Archive bench (`npm run bench:archives`). Prints figures only, asserts nothing about time.
//  1. The zip of a built folder (server: hosting/build/output-archive.ts, what a build from source
//     stores as its deployment and what an export makes of a manifest deployment): a 5,000-file,
//     ~100 MB folder (4,900 text files of 6-42 KB that compress, 100 random 100 KB files that don't).
//  2. The CLI's zip of the same folder (packages/cli/src/zip.ts, `hostbase deploy` of source).
//  3. The tar.gz of a project export (backup/tar.ts): the same files written and extracted again.
//  4. A project export and import round trip through the real modules (PGlite in memory, files on
//     disk): a manifest deployment of 2,000 files (zipped at export) and 20 stored files of 1 MiB.
// Each step runs BENCH_ROUNDS times (default 3); best and median are printed. The machine is shared:
// compare runs made back to back, and read the spread between rounds as the noise.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';
import { writeArchive } from '../server/src/modules/hosting/build/output-archive';
import { backupDeps, exportProject, importProject } from '../server/src/modules/backup';
import { TarWriter, extractTar } from '../server/src/modules/backup/tar';
import { listFolder, zipEntries } from '../packages/cli/src/zip';
import { multipart } from '../test/helpers/factories';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY; // zip | cli | tar | roundtrip
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

async function timed(label: string, step: (round: number) => Promise<number | void>): Promise<void> {
  const times: number[] = [];
  let size: number | void = undefined;
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    size = await step(r);
    times.push(performance.now() - started);
  }
  const list = times.map((t) => Math.round(t)).join(', ');
  console.log(`  ${label.padEnd(34)} best ${String(Math.round(Math.min(...times))).padStart(6)} ms  median ${String(Math.round(median(times))).padStart(6)} ms  (${list})${size ? `  ${mb(size)}` : ''}`);
}

/** Text that compresses about as a bundle does, and random bytes that don't. */
function makeFolder(dir: string, count: number): number {
  let bytes = 0;
  const word = () => crypto.randomBytes(3).toString('hex');
  for (let i = 0; i < count; i++) {
    const binary = i % 50 === 49;
    const name = i === 0 ? 'index.html' : `assets/d${i % 40}/f${i}.${binary ? 'bin' : 'js'}`;
    const data = binary
      ? crypto.randomBytes(100 * 1024)
      : Buffer.from(Array.from({ length: 200 + (i % 1200) }, () => `const ${word()} = "${word()}";`).join('\n'));
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), data);
    bytes += data.length;
  }
  return bytes;
}

async function roundTrip(work: string): Promise<void> {
  const open = async (name: string) => {
    const dataDir = fs.mkdtempSync(path.join(work, `${name}-`));
    const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: `bench-${name}`, LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '10', SITE_RUNNER: 'local' }), webDir: undefined };
    const database = await openDatabase({ pgliteDir: 'memory://' });
    const app = await buildApp(config, { database, logger: false });
    await app.ready();
    const deps = backupDeps(app.deps, app.projects.lifecycles, path.join(dataDir, 'backup'));
    const post = async (url: string, payload: unknown, token?: string) => {
      const res = await app.inject({ method: 'POST', url: `/api${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, payload: payload as object });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const { token } = await post('/register', { name: 'Bench', email: 'bench@example.com', password: 'correct horse battery' });
    return { app, deps, post, token, close: async () => void (await app.close()) };
  };
  const a = await open('a');
  const project = (await a.post('/create-project', { projectName: 'Bench', subdomain: 'bench' }, a.token)).project;
  const auth = { authorization: `Bearer ${a.token}` };
  // A manifest deployment: its files are zipped at export (backup/manifest-zip.ts).
  const site: Record<string, Buffer> = {};
  for (let i = 0; i < 2000; i++) site[i === 0 ? 'index.html' : `assets/f${i}.js`] = Buffer.from(`// ${i}\n` + `export const v${i} = "${crypto.randomBytes(8).toString('hex')}";\n`.repeat(80));
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
  const m = await a.app.inject({ method: 'POST', url: `/api/project/${project.id}/deployments/manifest`, headers: auth, payload: { type: 'Static', files: Object.fromEntries(Object.entries(site).map(([k, v]) => [k, sha(v)])) } });
  const { deployment_id: id, missing } = m.json() as { deployment_id: string; missing: string[] };
  const byDigest = new Map(Object.values(site).map((v) => [sha(v), v]));
  for (let i = 0; i < missing.length; i += 500) {
    const { body, contentType } = multipart(missing.slice(i, i + 500).map((d) => ({ field: 'file', name: d, type: 'application/octet-stream', content: byDigest.get(d)! })));
    const res = await a.app.inject({ method: 'POST', url: `/api/project/${project.id}/deployments/${id}/files`, headers: { ...auth, 'content-type': contentType }, payload: body });
    if (res.statusCode !== 200) throw new Error(`files: ${res.statusCode} ${res.body}`);
  }
  const fin = await a.app.inject({ method: 'POST', url: `/api/project/${project.id}/deployments/${id}/finish`, headers: auth, payload: {} });
  if (fin.statusCode !== 200) throw new Error(`finish: ${fin.statusCode} ${fin.body}`);
  for (let i = 0; i < 20; i++) {
    const { body, contentType } = multipart([{ field: 'file', name: `file${i}.bin`, type: 'application/octet-stream', content: crypto.randomBytes(1024 * 1024) }]);
    const res = await a.app.inject({ method: 'POST', url: `/api/project/${project.id}/object-storage/upload`, headers: { ...auth, 'content-type': contentType }, payload: body });
    if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  }
  console.log(`export/import round trip: a manifest deployment of ${Object.keys(site).length} files (${mb(Object.values(site).reduce((n, b) => n + b.length, 0))}), 20 stored files of 1 MiB`);
  const archives: string[] = [];
  await timed('export (exportProject)', async (r) => {
    const out = path.join(work, `export-${r}.tar.gz`);
    archives.push(out);
    return (await exportProject(a.deps, project.id, out)).bytes;
  });
  const imports: number[] = [];
  for (const archive of archives) {
    const b = await open('b');
    const started = performance.now();
    await importProject(b.deps, archive, 'bench@example.com');
    imports.push(performance.now() - started);
    await b.close();
  }
  console.log(`  ${'import (importProject)'.padEnd(34)} best ${String(Math.round(Math.min(...imports))).padStart(6)} ms  median ${String(Math.round(median(imports))).padStart(6)} ms  (${imports.map(Math.round).join(', ')})`);
  await a.close();
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-bench-archives-'));
  try {
    const folder = path.join(work, 'site');
    const bytes = makeFolder(folder, 5000);
    console.log(`a folder of 5,000 files, ${mb(bytes)} (node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    if (!ONLY || ONLY === 'zip') {
      await timed('server zip (writeArchive)', async (r) => {
        const out = path.join(work, `server-${r}.zip`);
        await writeArchive(folder, out);
        return fs.statSync(out).size;
      });
    }
    if (!ONLY || ONLY === 'cli') {
      await timed('CLI zip (listFolder + zipEntries)', async () => zipEntries(listFolder(folder)).length);
    }
    if (!ONLY || ONLY === 'tar') {
      const files = listFolder(folder);
      await timed('tar.gz write (TarWriter)', async (r) => {
        const out = path.join(work, `export-${r}.tar.gz`);
        const tar = new TarWriter(fs.createWriteStream(out));
        for (const f of files) await tar.add(f.name, fs.statSync(f.file).size, fs.createReadStream(f.file));
        await tar.finish();
        return fs.statSync(out).size;
      });
      await timed('tar.gz extract (extractTar)', async (r) => {
        const dest = path.join(work, `extracted-${r}`);
        fs.mkdirSync(dest);
        await extractTar(fs.createReadStream(path.join(work, `export-${r}.tar.gz`)), dest, () => true, 2 ** 32);
      });
    }
    if (!ONLY || ONLY === 'roundtrip') await roundTrip(work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
