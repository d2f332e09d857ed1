// The API's hottest calls beside a bare Fastify route: `npm run bench:api` (or `npx tsx bench/api.ts`).
//
// The load comes from wrk (bench/wrk.ts), one generator thread, so on this 2-core machine the
// generator has one core and the server the other. Each server's CPU use during a run is printed
// from /proc: a server near 100 % of a core is the bottleneck, as a measurement of it should be.
// (The earlier autocannon driver topped out near 15,000 req/s, below the bare route's own limit, so
// its ratios were the generator's; they read higher than the server's true ratios.)
//
// Processes: the real server as `npm start` runs it (bench/server-process.ts: dist/ when built,
// else the sources through tsx; logging at its default level, info, to /dev/null; security
// headers, rate limits and usage counting on as configured by default), and a bare Fastify route
// (GET /bare, a small JSON object, logger off) in a process of its own. The calls:
//   - POST /api/verify-token (a developer's token: signature, expiry, the account);
//   - POST /api/verify-token with a forged token (the 401 answer);
//   - GET /api/auth/v1/user (the project's publishable key, the end user's token, the user);
//   - GET /api/storage/v1/objects (the secret key, a page of the project's 20 files).
// Each runs at 64 and at 200 connections, after a warm-up run. Printed: req/s, p50/p99 latency,
// errors and non-2xx answers, the server's CPU, and the ratio to the bare route at the same
// connections. With DATABASE_URL the table runs on PostgreSQL and then on embedded PGlite; without
// it on PGlite only. Figures only: nothing here asserts anything about time.
// Options (env): BENCH_SECONDS (default 5), DATABASE_URL, BENCH_ONLY (a part of a call's name: only
// it and the bare route), BENCH_CONNECTIONS (e.g. "64"), BENCH_PROFILE=dir (the server writes a
// CPU profile there when it stops; summarise it with `node bench/profile-summary.mjs <file>`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, onStop, portOf, post, serveBare, startChild, stopChild } from './http';
import { benchDatabase, startServer, stopServer } from './server-process';
import { ensureWrk, wrk, type WrkCall } from './wrk';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '64,200').split(',').map(Number);
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function measure(call: WrkCall, connections: number, pid: number) {
  await wrk(call, connections, 1); // warm-up
  const before = cpuSeconds(pid);
  const r = await wrk(call, connections, SECONDS);
  const cpu = (cpuSeconds(pid) - before) / SECONDS;
  return { ...r, cpu };
}

function row(name: string, connections: number, r: Awaited<ReturnType<typeof measure>>, ratio: string): string {
  return `  ${name.padEnd(42)} ${String(connections).padStart(5)} ${fmt(r.rate).padStart(9)} ${fmt(r.p50, 1).padStart(7)} ${fmt(r.p99, 1).padStart(7)} ${String(r.errors).padStart(6)} ${String(r.non2xx).padStart(8)} ${`${Math.round(r.cpu * 100)} %`.padStart(7)}  ${ratio}`;
}

async function benchEngine(engine: 'postgres' | 'pglite', bare: { port: number; pid: number }): Promise<void> {
  const db = engine === 'postgres' ? await benchDatabase() : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hostbase-bench-api-`));
  const profile = process.env.BENCH_PROFILE ? { BENCH_NODE_FLAGS: `--cpu-prof --cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE)}` } : {};
  const flags = process.env.BENCH_NODE_FLAGS;
  if (profile.BENCH_NODE_FLAGS) process.env.BENCH_NODE_FLAGS = [flags, profile.BENCH_NODE_FLAGS].filter(Boolean).join(' ');
  const server = await startServer(dataDir, db?.url, { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' }, { discardOutput: true });
  if (flags === undefined) delete process.env.BENCH_NODE_FLAGS;
  else process.env.BENCH_NODE_FLAGS = flags;
  try {
    const base = `http://127.0.0.1:${server.port}/api`;
    const dev = await post(base, '/register', { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'stopwatch horse 1' });
    const auth = { authorization: `Bearer ${dev.token as string}` };
    const created = await post(base, '/create-project', { projectName: 'Bench', subdomain: `bench${Date.now()}` }, auth);
    const projectId = (created.project as { id: string }).id;
    const publishable = (await post(base, `/project/${projectId}/authentication-details`, {}, auth)).api_key as string;
    const secret = (await post(base, `/project/${projectId}/bucket-details`, {}, auth)).api_key as string;
    const session = await post(base + '/auth/v1', '/signup', { email: 'enduser@example.com', password: 'end user password 1' }, { 'X-Hostbase-Key': publishable });
    for (let i = 0; i < 20; i++) {
      const form = new FormData();
      form.append('file', new Blob([`bench file ${i}\n`], { type: 'text/plain' }), `file-${i}.txt`);
      const res = await fetch(`${base}/storage/v1/objects`, { method: 'POST', headers: { 'X-Hostbase-Key': secret }, body: form });
      if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
    }
    const token = dev.token as string;
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const json = { 'content-type': 'application/json' };
    const calls: [string, WrkCall][] = [
      ['POST /api/verify-token', { url: `${base}/verify-token`, method: 'POST', headers: json, body: JSON.stringify({ token }) }],
      ['POST /api/verify-token, forged token (401)', { url: `${base}/verify-token`, method: 'POST', headers: json, body: JSON.stringify({ token: forged }) }],
      ['GET /api/auth/v1/user', { url: `${base}/auth/v1/user`, headers: { 'X-Hostbase-Key': publishable, 'X-Hostbase-User-Token': session.access_token as string } }],
      ['GET /api/storage/v1/objects (20 files)', { url: `${base}/storage/v1/objects`, headers: { 'X-Hostbase-Key': secret } }],
    ];
    const only = process.env.BENCH_ONLY;
    console.log(`\n${engine === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}: server from ${server.mode}, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}, ${SECONDS} s per run, wrk -t1, Node ${process.version}, ${os.cpus().length} CPUs`);
    console.log(`  ${'call'.padEnd(42)} ${'conns'.padStart(5)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(6)} ${'non-2xx'.padStart(8)} ${'srv CPU'.padStart(7)}  ratio to bare`);
    for (const connections of CONNECTIONS) {
      const bareRun = await measure({ url: `http://127.0.0.1:${bare.port}/bare` }, connections, bare.pid);
      console.log(row('bare Fastify GET /bare (own process)', connections, bareRun, ''));
      for (const [name, call] of calls) {
        if (only && !name.includes(only)) continue;
        const r = await measure(call, connections, server.child.pid!);
        console.log(row(name, connections, r, fmt(r.rate / bareRun.rate, 3)));
      }
    }
  } finally {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
    await db?.drop();
  }
}

async function main(): Promise<void> {
  ensureWrk();
  const bare = await startChild<{ port: number }>(__filename, '--serve-bare');
  try {
    const engines: ('postgres' | 'pglite')[] = process.env.DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];
    console.log('API bench. Goals: verify-token and auth/v1/user >= 0.5 x the bare route with p99 < 50 ms at 200 connections; a 401 >= 0.7 x; storage objects >= 0.2 x with p99 < 50 ms at 64; 0 errors');
    for (const engine of engines) await benchEngine(engine, { port: bare.ready.port, pid: bare.child.pid! });
  } finally {
    await stopChild(bare.child);
  }
}

if (process.argv.includes('--serve-bare')) {
  void serveBare().then((f) => {
    process.send!({ port: portOf(f) });
    onStop();
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
