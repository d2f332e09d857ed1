// Storage bench: `npm run bench:storage` (or `npx tsx bench/storage.ts`).
//
// A child process serves the real app (PGlite and the disk ObjectStore in a temp DATA_DIR, or
// S3 when S3_ENDPOINT is set); this process registers, creates a project, then
//   - uploads a 256 MiB file through POST /api/project/{id}/object-storage/upload, multipart,
//     streamed from disk, while sampling the server's RSS from /proc/<pid>/status;
//   - downloads it by its share link to a file on the same disk;
//   - copies the same file with `cp` on the same disk, and prints MB/s and the ratios.
// Figures only: nothing here asserts anything about time. Goal (issue 3): ≥ 0.7 × cp, peak
// RSS < 150 MB. Options (env): BENCH_MIB (default 256), BENCH_DIR (default the OS temp dir).
import { execFileSync, fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MIB ?? 256) * MiB;

async function serve(dataDir: string): Promise<void> {
  const { buildApp } = await import('../server/src/app');
  const { loadConfig } = await import('../server/src/config');
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '12', MAX_UPLOAD_BYTES: String(SIZE * 2) } as Record<string, string>);
  const app = await buildApp({ ...config, webDir: undefined }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ port: (app.server.address() as { port: number }).port });
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    await app.close();
    process.exit(0);
  });
}

/** kB figures of /proc/<pid>/status: VmRSS now, VmHWM the peak since start. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function json(port: number, p: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}/api${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Multipart upload with a known Content-Length, the file part streamed from disk. */
function uploadFile(port: number, token: string, projectId: string, file: string): Promise<Record<string, unknown>> {
  const boundary = '----bench' + crypto.randomBytes(8).toString('hex');
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: `/api/project/${projectId}/object-storage/upload`,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + fs.statSync(file).size + tail.length },
    });
    req.once('response', async (res) => {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (res.statusCode === 200) resolve(body);
      else reject(new Error(`upload: ${res.statusCode} ${JSON.stringify(body)}`));
    });
    req.once('error', reject);
    req.write(head);
    fs.createReadStream(file, { highWaterMark: MiB })
      .on('end', () => req.end(tail))
      .on('error', reject)
      .pipe(req, { end: false });
  });
}

async function download(url: string, to: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    http.get(url, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`download: ${res.statusCode}`));
      pipeline(res, fs.createWriteStream(to, { highWaterMark: MiB })).then(resolve, reject);
    }).once('error', reject);
  });
}

async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file, { highWaterMark: MiB }), hash);
  return hash.digest('hex');
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

interface Timing {
  /** Until the operation returned: its bytes may still be dirty pages in the page cache. */
  done: number;
  /** Plus a `sync`: until its bytes were on the disk. */
  durable: number;
}

/**
 * Times `fn` from a clean page cache (a `sync` first, untimed, so one phase's write-back never
 * lands in the next) to its end, and to the end of a following `sync`.
 */
async function timed(fn: () => unknown): Promise<Timing> {
  execFileSync('sync');
  const start = process.hrtime.bigint();
  await fn();
  const done = seconds(start);
  execFileSync('sync');
  return { done, durable: seconds(start) };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'hostbase-bench-storage-'));
  const dataDir = path.join(work, 'data');
  const source = path.join(work, 'source.bin');
  const database = await benchDatabase();
  const child = fork(__filename, ['serve', dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, ...(database ? { DATABASE_URL: database.url } : {}) },
  });
  try {
    // Random bytes: nothing on the way (disk, hash) gets an easy ride from repeated content.
    const block = crypto.randomBytes(MiB);
    const out = fs.openSync(source, 'w');
    for (let written = 0; written < SIZE; written += MiB) fs.writeSync(out, block.subarray(0, Math.min(MiB, SIZE - written)), 0);
    fs.closeSync(out);

    const { port } = await new Promise<{ port: number }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { port: number }));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const pid = child.pid!;
    const email = `bench-${Date.now()}@example.com`;
    const { token } = (await json(port, '/register', { name: 'Bench', email, password: 'correct horse battery' })) as { token: string };
    const { project } = (await json(port, '/create-project', { projectName: 'Bench', subdomain: `bench-${Date.now()}` }, token)) as { project: { id: string } };

    const cpTarget = path.join(work, 'cp.bin');
    const cpSeconds = await timed(() => execFileSync('cp', [source, cpTarget]));
    fs.rmSync(cpTarget);

    const before = memory(pid);
    let peak = before.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, memory(pid).rss)), 10);
    let file: { path: string; object_size: number } | undefined;
    const upSeconds = await timed(async () => {
      file = (await uploadFile(port, token, project.id, source)).file as typeof file;
    });
    clearInterval(sampler);
    const after = memory(pid);
    peak = Math.max(peak, after.rss);

    const downloaded = path.join(work, 'downloaded.bin');
    const downSeconds = await timed(() => download(file!.path.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`), downloaded));
    const same = (await sha256(source)) === (await sha256(downloaded));

    const mbps = (s: number) => (SIZE / 1e6 / s).toFixed(0).padStart(5);
    const row = (label: string, t: Timing) =>
      console.log(
        `${label.padEnd(9)} returned ${t.done.toFixed(2).padStart(5)} s ${mbps(t.done)} MB/s ${(cpSeconds.done / t.done).toFixed(2)} × cp` +
          ` | on disk ${t.durable.toFixed(2).padStart(5)} s ${mbps(t.durable)} MB/s ${(cpSeconds.durable / t.durable).toFixed(2)} × cp`,
      );
    console.log(`storage bench: ${SIZE / MiB} MiB file, ${process.env.S3_ENDPOINT ? 'S3' : 'disk'} store under ${work}, ${database ? 'PostgreSQL' : 'PGlite (in the server process)'}`);
    row('cp', cpSeconds);
    row('upload', upSeconds);
    row('download', downSeconds);
    console.log(`downloaded bytes identical: ${same}`);
    console.log(`server RSS: ${(before.rss / 1024).toFixed(0)} MB before the upload, peak ${(peak / 1024).toFixed(0)} MB during it (+${((peak - before.rss) / 1024).toFixed(0)} MB, sampled every 10 ms); VmHWM since start ${(after.hwm / 1024).toFixed(0)} MB`);
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r).once('error', r));
    fs.rmSync(work, { recursive: true, force: true });
    await database?.drop();
  }
}

/** With DATABASE_URL: a database of the bench's own, dropped afterwards (never the given one). */
async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const { Client } = await import('pg');
  const name = `hostbase_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

if (process.argv[2] === 'serve') void serve(process.argv[3]!);
else main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
