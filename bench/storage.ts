// Storage bench: `npm run bench:storage` (or `npx tsx bench/storage.ts`).
//
// A child process serves the real app (the disk ObjectStore in a temp DATA_DIR, or S3 when
// S3_ENDPOINT is set; PGlite in the server process, or PostgreSQL when DATABASE_URL is set). It
// runs from compiled JS (dist/, `npm run build:server`) when that exists, else through tsx; the
// report says which, and warns when dist/ is older than the sources. This process registers,
// creates a project, then runs BENCH_ROUNDS (default 3) rounds, each alternating:
//   - `cp src dst` (copy_file_range: an in-kernel copy, the fastest possible baseline),
//   - `cat src > dst` (read + write through userspace: what any server has to do at least),
//   - upload of a 256 MiB file with curl (`-F file=@src`, a C client) to
//     POST /api/project/{id}/object-storage/upload, and with a Node client streaming from disk,
//   - download by its share link with curl (`-o dst`) and with a Node client,
// and prints best and median MB/s of each, as "returned" (bytes may still be dirty pages) and
// "on disk" (plus a `sync`), with ratios to cp and cat. The server's RSS is sampled every 5 ms
// during each upload: the baseline (before the first upload) and what the upload added are
// printed apart. Figures only: nothing here asserts anything about time.
// Goal (uploads near disk speed, memory flat whatever the size): ≥ 0.7 × cp, peak RSS < 150 MB.
// Options (env): BENCH_MIB (default 256), BENCH_DIR (default the OS temp dir), BENCH_ROUNDS,
// BENCH_SERVER=tsx|dist (default: dist when built), BENCH_NODE_CLIENT=0 to skip the Node client,
// BENCH_CPU_PROF=<dir> for a server CPU profile.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { benchDatabase } from './server-process';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MIB ?? 256) * MiB;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROOT = path.resolve(__dirname, '..');
const DIST_APP = path.join(ROOT, 'dist', 'server', 'src', 'app.js');

/** The server, in a child process: compiled JS under plain node, or the sources through tsx. */
function startServer(dataDir: string, env: NodeJS.ProcessEnv): { child: ChildProcess; mode: string } {
  const useDist = process.env.BENCH_SERVER ? process.env.BENCH_SERVER === 'dist' : fs.existsSync(DIST_APP);
  const src = useDist ? path.join(ROOT, 'dist', 'server', 'src') : path.join(ROOT, 'server', 'src');
  const script = `
    const { buildApp } = require(${JSON.stringify(path.join(src, 'app'))});
    const { loadConfig } = require(${JSON.stringify(path.join(src, 'config'))});
    (async () => {
      const config = loadConfig({ ...process.env, DATA_DIR: ${JSON.stringify(dataDir)}, LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '12', MAX_UPLOAD_BYTES: String(${SIZE * 2}) });
      const app = await buildApp({ ...config, webDir: undefined }, { logger: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      process.send({ port: app.server.address().port });
      process.on('message', async (m) => { if (m !== 'stop') return; await app.close(); process.exit(0); });
    })().catch((err) => { console.error(err); process.exit(1); });`;
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const loader = useDist ? [] : ['--import', 'tsx'];
  // The same V8 flags as `npm start` (scripts/start.mjs): a 1 MiB young generation.
  const child = spawn(process.execPath, ['--max-semi-space-size=1', ...loader, ...prof, '-e', script], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env });
  let mode = useDist ? 'compiled JS (dist/, plain node)' : 'TypeScript through tsx';
  if (useDist) {
    const built = fs.statSync(DIST_APP).mtimeMs;
    const newer = sources(path.join(ROOT, 'server', 'src')).filter((f) => fs.statSync(f).mtimeMs > built);
    if (newer.length) mode += ` — WARNING: ${newer.length} source file(s) newer than dist/ (e.g. ${path.relative(ROOT, newer[0]!)}): run npm run build:server`;
  }
  return { child, mode };
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** kB figures of /proc/<pid>/status: VmRSS now, VmHWM the peak since start. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime and stime (fields 14, 15) in USER_HZ ticks
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

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { maxBuffer: 16 * MiB }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd}: ${err.message} ${stderr}`)) : resolve(stdout))),
  );
}

type Uploaded = { object_id: string; object_size: number };

/** curl -F: a multipart upload by a C client, the file streamed from disk. */
async function curlUpload(url: string, token: string, file: string, answer: string): Promise<Uploaded> {
  // `Expect:` off: curl would otherwise wait for a 100 Continue before the body.
  const code = await run('curl', ['-sS', '-o', answer, '-w', '%{http_code}', '-H', `authorization: Bearer ${token}`, '-H', 'Expect:', '-F', `file=@${file};type=application/octet-stream`, url]);
  const body = fs.readFileSync(answer, 'utf8');
  if (code !== '200') throw new Error(`curl upload: ${code} ${body}`);
  return JSON.parse(body).file as Uploaded;
}

async function curlDownload(url: string, to: string): Promise<void> {
  const code = await run('curl', ['-sS', '-o', to, '-w', '%{http_code}', url]);
  if (code !== '200') throw new Error(`curl download: ${code}`);
}

/** Node client: multipart upload with a known Content-Length, the file part streamed from disk. */
function nodeUpload(url: string, token: string, file: string): Promise<Uploaded> {
  const boundary = '----bench' + crypto.randomBytes(8).toString('hex');
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + fs.statSync(file).size + tail.length },
    });
    req.once('response', async (res) => {
      const chunks: Buffer[] = [];
      for await (const c of res) chunks.push(c as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (res.statusCode === 200) resolve(body.file);
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

async function nodeDownload(url: string, to: string): Promise<void> {
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
  /** CPU seconds the server used meanwhile: steadier than wall time on a busy machine. */
  serverCpu: number;
  /** Plus a `sync`: until its bytes were on the disk. */
  durable: number;
}

/**
 * Times `fn` from a clean page cache (a `sync` first, untimed, so one phase's write-back never
 * lands in the next) to its end, and to the end of a following `sync`.
 */
async function timed(fn: () => unknown, serverPid?: number): Promise<Timing> {
  execFileSync('sync');
  const cpu = serverPid ? cpuSeconds(serverPid) : 0;
  const start = process.hrtime.bigint();
  await fn();
  const done = seconds(start);
  const serverCpu = serverPid ? cpuSeconds(serverPid) - cpu : 0;
  execFileSync('sync');
  return { done, serverCpu, durable: seconds(start) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const best = (xs: number[]) => Math.min(...xs);

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'hostbase-bench-storage-'));
  const dataDir = path.join(work, 'data');
  const source = path.join(work, 'source.bin');
  // With DATABASE_URL: a database of the bench's own, dropped afterwards (never the given one).
  const database = process.env.DATABASE_URL ? await benchDatabase() : undefined;
  const { child, mode } = startServer(dataDir, { ...process.env, ...(database ? { DATABASE_URL: database.url } : {}) });
  const nodeClient = process.env.BENCH_NODE_CLIENT !== '0';
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
    const uploadUrl = `http://127.0.0.1:${port}/api/project/${project.id}/object-storage/upload`;
    // Uploads are private: a download through the share link needs the file shared first (untimed).
    const shareUrl = async (f: Uploaded) => {
      const { file } = (await json(port, `/project/${project.id}/object-storage/share`, { object_id: f.object_id }, token)) as { file: { path: string } };
      return file.path.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`);
    };
    const target = path.join(work, 'target.bin');
    const answer = path.join(work, 'answer.json');

    const results = new Map<string, Timing[]>();
    const record = (label: string, t: Timing) => results.set(label, [...(results.get(label) ?? []), t]);

    const baseline = memory(pid);
    let peak = baseline.rss;
    let sampler: NodeJS.Timeout | undefined;
    const sampling = async <T>(fn: () => Promise<T>): Promise<T> => {
      sampler = setInterval(() => (peak = Math.max(peak, memory(pid).rss)), 5);
      try {
        return await fn();
      } finally {
        clearInterval(sampler);
        peak = Math.max(peak, memory(pid).rss);
      }
    };

    let identical = true;
    for (let round = 0; round < ROUNDS; round++) {
      record('cp', await timed(() => run('cp', [source, target])));
      fs.rmSync(target);
      record('cat', await timed(() => run('sh', ['-c', 'cat "$1" > "$2"', 'cat', source, target])));
      fs.rmSync(target);

      let file!: Uploaded;
      record('upload curl', await timed(() => sampling(async () => (file = await curlUpload(uploadUrl, token, source, answer))), pid));
      const curlLink = await shareUrl(file);
      record('download curl', await timed(() => curlDownload(curlLink, target), pid));
      if (round === 0) identical &&= (await sha256(source)) === (await sha256(target));
      fs.rmSync(target);

      if (nodeClient) {
        record('upload node', await timed(() => sampling(async () => (file = await nodeUpload(uploadUrl, token, source))), pid));
        const nodeLink = await shareUrl(file);
        record('download node', await timed(() => nodeDownload(nodeLink, target), pid));
        fs.rmSync(target);
      }
    }
    const after = memory(pid);

    const mbps = (s: number) => (SIZE / 1e6 / s).toFixed(0).padStart(5);
    const cp = results.get('cp')!;
    const cat = results.get('cat')!;
    const stat = (ts: Timing[], pick: (xs: number[]) => number, key: 'done' | 'durable') => pick(ts.map((t) => t[key]));
    console.log(`storage bench: ${SIZE / MiB} MiB file, ${ROUNDS} rounds, ${process.env.S3_ENDPOINT ? 'S3' : 'disk'} store under ${work}`);
    console.log(`server: ${mode}; database: ${database ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (in the server process)'}; ${os.cpus().length} CPUs, node ${process.version}`);
    for (const key of ['done', 'durable'] as const) {
      console.log(key === 'done' ? '\nreturned (bytes may still be in the page cache)          best                              median' : '\non disk (after sync)');
      for (const [label, ts] of results) {
        const col = (pick: (xs: number[]) => number) => {
          const s = stat(ts, pick, key);
          return `${s.toFixed(2).padStart(5)} s ${mbps(s)} MB/s ${(stat(cp, pick, key) / s).toFixed(2)}×cp ${(stat(cat, pick, key) / s).toFixed(2)}×cat`;
        };
        console.log(`  ${label.padEnd(14)} ${col(best)}   ${col(median)}`);
      }
    }
    console.log('\nserver CPU (user + system) per operation, best / median');
    for (const [label, ts] of results) {
      if (label === 'cp' || label === 'cat') continue;
      const cpu = ts.map((t) => t.serverCpu);
      console.log(`  ${label.padEnd(14)} ${best(cpu).toFixed(2)} s / ${median(cpu).toFixed(2)} s`);
    }
    console.log(`\ndownloaded bytes identical: ${identical}`);
    console.log(
      `server RSS: baseline ${(baseline.rss / 1024).toFixed(0)} MB (idle, after sign-up, before any upload); ` +
        `uploads added +${((peak - baseline.rss) / 1024).toFixed(0)} MB (peak ${(peak / 1024).toFixed(0)} MB, sampled every 5 ms); ` +
        `VmHWM since start ${(after.hwm / 1024).toFixed(0)} MB (includes start-up)`,
    );
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r).once('error', r));
    fs.rmSync(work, { recursive: true, force: true });
    await database?.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
