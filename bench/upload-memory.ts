// Upload memory bench: `npm run bench:upload-memory` (or `npx tsx bench/upload-memory.ts`).
//
// The server's resident memory around one big upload, in the three ways it runs: embedded PGlite
// on a fresh data directory (its first start creates the database), PGlite reopened (the same
// directory, started again) and PostgreSQL (DATABASE_URL, a database of the bench's own). Each
// run starts a real server process (`node dist/server/src/server.js`, as `npm start` does, or the
// sources through tsx when dist/ is missing), signs up (or in), uploads BENCH_MIB (default 256)
// MiB of random bytes with curl to the storage API, samples the server's RSS every 5 ms and
// prints: RSS once up, the peak during the upload, and VmHWM (the kernel's own peak since the
// process started, start-up included). Goal (small instances, several per host): PGlite fresh < 250 MB, reopened < 150 MB.
// The server runs with `npm start`'s flags and MALLOC_ARENA_MAX (scripts/server-process.mjs; BENCH_MALLOC_ARENA_MAX='' for glibc's default).
// Options (env): BENCH_MIB, BENCH_DIR (default the OS temp dir), BENCH_SERVER=tsx|dist,
// BENCH_ONLY=fresh,reopened,postgres (a subset), BENCH_NODE_FLAGS (extra flags for the server).
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDatabase, memory, startServer, stopServer } from './server-process';

const MiB = 1024 * 1024;
const SIZE = Number(process.env.BENCH_MIB ?? 256) * MiB;

async function json(port: number, p: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}/api${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

function curlUpload(url: string, token: string, file: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'curl',
      ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-H', `authorization: Bearer ${token}`, '-H', 'Expect:', '-F', `file=@${file};type=application/octet-stream`, url],
      (err, stdout, stderr) => (err ? reject(new Error(`curl: ${err.message} ${stderr}`)) : resolve(stdout)),
    ),
  );
}

interface Figures {
  label: string;
  up: number;
  peak: number;
  hwm: number;
}

const EMAIL = `bench-${Date.now()}@example.com`;
const PASSWORD = 'correct horse battery';

/** One server life: start, sign up (first) or in, upload once while sampling RSS, stop. */
async function measure(label: string, dataDir: string, source: string, databaseUrl: string | undefined, first: boolean): Promise<Figures> {
  const server = await startServer(dataDir, databaseUrl, { MAX_UPLOAD_BYTES: String(SIZE * 2) });
  const pid = server.child.pid!;
  try {
    const up = memory(pid).rss;
    const { port } = server;
    const { token } = first
      ? ((await json(port, '/register', { name: 'Bench', email: EMAIL, password: PASSWORD })) as { token: string })
      : ((await json(port, '/verify_user', { email: EMAIL, password: PASSWORD })) as { token: string });
    const { project } = (await json(port, '/create-project', { projectName: 'Bench', subdomain: `bench-${crypto.randomBytes(4).toString('hex')}` }, token)) as {
      project: { id: string };
    };
    let peak = memory(pid).rss;
    const sampler = setInterval(() => (peak = Math.max(peak, memory(pid).rss)), 5);
    let code: string;
    try {
      code = await curlUpload(`http://127.0.0.1:${port}/api/project/${project.id}/object-storage/upload`, token, source);
    } finally {
      clearInterval(sampler);
    }
    if (code !== '200') throw new Error(`${label}: upload answered ${code}\n${server.output()}`);
    const end = memory(pid);
    return { label: `${label} (${server.mode})`, up, peak: Math.max(peak, end.rss), hwm: end.hwm };
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? 'fresh,reopened,postgres').split(',');
  const work = fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), 'hostbase-bench-upmem-'));
  const source = path.join(work, 'source.bin');
  const block = crypto.randomBytes(MiB);
  const out = fs.openSync(source, 'w');
  for (let written = 0; written < SIZE; written += MiB) fs.writeSync(out, block.subarray(0, Math.min(MiB, SIZE - written)), 0);
  fs.closeSync(out);
  const results: Figures[] = [];
  try {
    const pgliteDir = path.join(work, 'data-pglite');
    if (only.includes('fresh') || only.includes('reopened')) {
      const fresh = await measure('PGlite, fresh data dir', pgliteDir, source, undefined, true);
      if (only.includes('fresh')) results.push(fresh);
      if (only.includes('reopened')) results.push(await measure('PGlite, reopened', pgliteDir, source, undefined, false));
    }
    if (only.includes('postgres')) {
      if (!process.env.DATABASE_URL) console.log('(PostgreSQL skipped: DATABASE_URL is not set)');
      else {
        const database = await benchDatabase();
        try {
          results.push(await measure('PostgreSQL', path.join(work, 'data-pg'), source, database.url, true));
        } finally {
          await database.drop();
        }
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const mb = (kb: number) => `${(kb / 1024).toFixed(0).padStart(4)} MB`;
  console.log(`upload memory bench: one ${SIZE / MiB} MiB upload (curl, multipart) to the storage API; node ${process.version}`);
  console.log(`  ${'run'.padEnd(36)} ${'RSS when up'.padStart(11)} ${'peak upload'.padStart(11)} ${'VmHWM'.padStart(8)}`);
  for (const r of results) console.log(`  ${r.label.padEnd(36)} ${mb(r.up).padStart(11)} ${mb(r.peak).padStart(11)} ${mb(r.hwm).padStart(8)}`);
  console.log('  (VmHWM: the peak since the process started, start-up included; goal PGlite fresh < 250 MB, reopened < 150 MB)');
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
