// Soak bench: `npm run bench:soak` (or `npx tsx bench/soak.ts`).
//
// A real server process (bench/server-process.ts) on a fresh data dir, on PostgreSQL when
// DATABASE_URL is set (a database of the bench's own) else embedded PGlite, under SOAK_SECONDS
// (default 300) of mixed traffic at a fixed rate (SOAK_RATE requests a second, default 20,
// sent on schedule whatever the answers' pace: an open loop) on loopback, with keep-alive:
//   sign-ins (POST /api/verify_user)                       10 %
//   listings (POST /api/project/{id}/object-storage/files) 25 %
//   uploads of 16 KiB (…/object-storage/upload)            10 %, each later deleted (…/delete)
//   downloads by share link                                25 %
//   GETs of a deployed static site (Host: {sub}.localhost) 30 %
// Printed: requests a second achieved, p50/p99 latency per kind and overall, errors (a failed
// request or any answer but the expected 2xx), and the server's RSS at the start of the traffic,
// after the warm-up (the first 10 %) and at the end. Goal (no leak under steady traffic): 0 errors, RSS growth < 10 %.
// Options (env): SOAK_SECONDS, SOAK_RATE, DATABASE_URL, BENCH_SERVER=tsx|dist.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { benchDatabase, memory, startServer, stopServer } from './server-process';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 300);
const RATE = Number(process.env.SOAK_RATE ?? 20);
const yazl = require('yazl') as { ZipFile: new () => { addBuffer(b: Buffer, n: string): void; end(): void; outputStream: NodeJS.ReadableStream } };

// Idle sockets are dropped after 2 s, before the server's own 5 s keep-alive timeout closes them:
// otherwise a request sent on a socket the server is closing meets ECONNRESET (the keep-alive race
// every HTTP client has to avoid; browsers retry it silently).
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 2_000 });

interface Answer {
  status: number;
  body: Buffer;
}

function request(port: number, method: string, p: string, headers: Record<string, string | number>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const jsonHeaders = (token?: string) => ({ 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) });

async function postJson(port: number, p: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await request(port, 'POST', `/api${p}`, jsonHeaders(token), Buffer.from(JSON.stringify(body)));
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${res.body.toString()}`);
  return JSON.parse(res.body.toString()) as Record<string, unknown>;
}

function multipart(field: string, filename: string, type: string, data: Buffer, extra: Record<string, string> = {}): { body: Buffer; contentType: string } {
  const boundary = '----soak' + crypto.randomBytes(8).toString('hex');
  const parts = Object.entries(extra).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const body = Buffer.concat([
    Buffer.from(parts.join('') + `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

function zipOf(files: { name: string; data: Buffer }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-soak-'));
  const database = process.env.DATABASE_URL ? await benchDatabase() : undefined;
  const server = await startServer(path.join(work, 'data'), database?.url, { MAX_UPLOAD_BYTES: String(1 << 20) });
  const pid = server.child.pid!;
  const { port } = server;
  try {
    // ---- setup: an account, a project, a deployed site, a few files to download
    // Sign-ins rotate over several accounts: the sign-in guard counts an attempt before the password
    // is checked, so more than a few in flight for one account and address at once are refused
    // (429) by design; a slow answer under load must not make the bench look like a guesser.
    const password = 'correct horse battery';
    const emails = Array.from({ length: 8 }, (_, i) => `soak-${Date.now()}-${i}@example.com`);
    const { token } = (await postJson(port, '/register', { name: 'Soak', email: emails[0], password })) as { token: string };
    for (const email of emails.slice(1)) await postJson(port, '/register', { name: 'Soak', email, password });
    let signIns = 0;
    const subdomain = `soak${crypto.randomBytes(4).toString('hex')}`;
    const { project } = (await postJson(port, '/create-project', { projectName: 'Soak', subdomain }, token)) as { project: { id: string } };
    const site = await zipOf([
      { name: 'index.html', data: Buffer.from('<!doctype html><title>soak</title><script src="/assets/app.js"></script>') },
      { name: 'assets/app.js', data: Buffer.from(`/* app */\n${'export const x = () => "hostbase";\n'.repeat(100)}`) },
    ]);
    const deployForm = multipart('file', 'site.zip', 'application/zip', site, { type: 'Static' });
    const deployed = await request(port, 'POST', `/api/project/${project.id}/upload-and-extract-zip/`, { authorization: `Bearer ${token}`, 'content-type': deployForm.contentType }, deployForm.body);
    if (deployed.status !== 200) throw new Error(`deploy: ${deployed.status} ${deployed.body.toString()}`);
    const siteHost = `${subdomain}.localhost:${port}`;

    const payload = crypto.randomBytes(16 * 1024);
    const upload = async () => {
      const form = multipart('file', 'soak.bin', 'application/octet-stream', payload);
      const res = await request(port, 'POST', `/api/project/${project.id}/object-storage/upload`, { authorization: `Bearer ${token}`, 'content-type': form.contentType }, form.body);
      if (res.status !== 200) return { res };
      const file = JSON.parse(res.body.toString()).file as { object_id: string };
      return { res, file };
    };
    const shared: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { file } = await upload();
      if (!file) throw new Error('setup upload failed');
      // Uploads are private: share them for the keyless downloads of the mix.
      const { file: sharedFile } = (await postJson(port, `/project/${project.id}/object-storage/share`, { object_id: file.object_id }, token)) as { file: { path: string } };
      shared.push(new URL(sharedFile.path).pathname);
    }
    const uploaded: string[] = [];
    let deleting: string[] = [];

    type Kind = 'sign-in' | 'listing' | 'upload' | 'delete' | 'download' | 'site';
    const mix: [Kind, number][] = [
      ['sign-in', 10],
      ['listing', 25],
      ['upload', 10],
      ['download', 25],
      ['site', 30],
    ];
    const ops: Record<Kind, () => Promise<Answer>> = {
      'sign-in': () => request(port, 'POST', '/api/verify_user', jsonHeaders(), Buffer.from(JSON.stringify({ email: emails[signIns++ % emails.length], password }))),
      listing: () => request(port, 'POST', `/api/project/${project.id}/object-storage/files`, jsonHeaders(token), Buffer.from('{}')),
      upload: async () => {
        const { res, file } = await upload();
        if (file) uploaded.push(file.object_id);
        return res;
      },
      delete: () => request(port, 'POST', `/api/project/${project.id}/object-storage/delete`, jsonHeaders(token), Buffer.from(JSON.stringify({ file_ids: deleting }))),
      download: () => request(port, 'GET', shared[Math.floor(Math.random() * shared.length)]!, {}),
      site: () => request(port, 'GET', Math.random() < 0.5 ? '/' : '/assets/app.js', { host: siteHost }),
    };
    const pick = (): Kind => {
      // Every 20th upload is followed by the deletion of the uploads so far: the bucket stays small.
      if (uploaded.length >= 20) {
        deleting = uploaded.splice(0, uploaded.length);
        return 'delete';
      }
      let r = Math.random() * 100;
      for (const [kind, weight] of mix) if ((r -= weight) < 0) return kind;
      return 'site';
    };

    const latencies = new Map<Kind, number[]>();
    const errors = new Map<string, number>();
    let done = 0;
    const total = Math.round(SECONDS * RATE);
    const rssStart = memory(pid).rss;
    let rssWarm = rssStart;
    let peak = rssStart;
    const sampler = setInterval(() => (peak = Math.max(peak, memory(pid).rss)), 1000);
    const warmAt = Math.round(total / 10);
    const started = performance.now();
    const inFlight: Promise<void>[] = [];
    let nextReport = 30_000;
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (i === warmAt) rssWarm = memory(pid).rss;
      if (performance.now() - started > nextReport) {
        console.error(`  … ${Math.round(nextReport / 1000)} s: ${done} answered, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors, RSS ${(memory(pid).rss / 1024).toFixed(0)} MB`);
        nextReport += 30_000;
      }
      const kind = pick();
      const t0 = performance.now();
      const p = ops[kind]().then(
        (res) => {
          if (res.status !== 200) {
            const key = `${kind} ${res.status} ${res.body.toString().slice(0, 120)}`;
            errors.set(key, (errors.get(key) ?? 0) + 1);
          }
          latencies.set(kind, [...(latencies.get(kind) ?? []), performance.now() - t0]);
        },
        (err: Error) => void errors.set(`${kind} ${err.message}`, (errors.get(`${kind} ${err.message}`) ?? 0) + 1),
      );
      inFlight.push(p.finally(() => done++));
      if (inFlight.length > 1000) inFlight.splice(0, 500); // settled long ago in a healthy run; kept short
    }
    await Promise.all(inFlight);
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rssEnd = memory(pid).rss;

    const all = [...latencies.values()].flat();
    const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    console.log(`soak bench: ${SECONDS} s at ${RATE} req/s (open loop, keep-alive) on loopback; server ${server.mode}, ${database ? 'PostgreSQL' : 'PGlite'}; ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`  requests: ${total} in ${elapsed.toFixed(1)} s = ${(total / elapsed).toFixed(1)} req/s; p50 ${ms(pct(all, 50))}, p99 ${ms(pct(all, 99))}`);
    for (const [kind, xs] of latencies) console.log(`    ${kind.padEnd(9)} ${String(xs.length).padStart(6)}  p50 ${ms(pct(xs, 50)).padStart(9)}  p99 ${ms(pct(xs, 99)).padStart(9)}`);
    console.log(`  errors: ${errorCount}${errorCount ? ' — ' + [...errors].map(([k, n]) => `${k}: ${n}`).join(', ') : ''}`);
    const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
    const growth = (from: number) => `${(((rssEnd - from) / from) * 100).toFixed(1)} %`;
    console.log(`  server RSS: start ${mb(rssStart)}, after warm-up (${warmAt} requests) ${mb(rssWarm)}, end ${mb(rssEnd)}, peak ${mb(peak)}; growth ${growth(rssStart)} from start, ${growth(rssWarm)} from warm-up (goal 0 errors, < 10 %)`);
    if (errorCount) process.exitCode = 1;
  } finally {
    await stopServer(server);
    agent.destroy();
    fs.rmSync(work, { recursive: true, force: true });
    await database?.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
