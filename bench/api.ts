// The API's hottest calls beside a bare Fastify route: `npm run bench:api` (or `npx tsx bench/api.ts`).
//
// Three processes: this one drives the load with autocannon; one child serves the real app; another
// serves a bare Fastify route (GET /bare answering a small JSON object), so neither server shares an
// event loop with the load generator or with the other. Each call runs at 64 and at 200 connections:
//   - POST /api/verify-token (a developer's token: signature, expiry, the account);
//   - GET /api/auth/v1/user (the project's key, the end user's token, the user);
//   - GET /api/storage/v1/objects (the bucket key, a page of the project's files).
// Printed: req/s, p50 and p99 latency, errors and non-2xx answers, and the ratio to the bare route
// at the same number of connections. With DATABASE_URL the whole table runs on PostgreSQL and then
// on embedded PGlite; without it on PGlite only.
// Figures only: nothing here asserts anything about time.
// Options (env): BENCH_SECONDS (default 5), DATABASE_URL, BENCH_ONLY (a part of a call's name: only
// it and the bare route), BENCH_PROFILE=dir (the app writes a CPU profile there when it stops).
import os from 'node:os';
import { autocannon, fmt, onStop, portOf, post, serveApp as serveRealApp, serveBare as serveBareRoute, startChild, stopChild } from './http';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = [64, 200];

interface Ready {
  port: number;
  driver?: string;
}

async function serveApp(): Promise<void> {
  const env = { ...process.env };
  if (process.env.BENCH_ENGINE === 'pglite') delete env.DATABASE_URL;
  const { app, close } = await serveRealApp('api', env);
  process.send!({ port: portOf(app), driver: app.deps.database.driver } satisfies Ready);
  onStop(close);
}

async function serveBare(): Promise<void> {
  const bare = await serveBareRoute();
  process.send!({ port: portOf(bare) } satisfies Ready);
  onStop();
}

function start(role: string, env: NodeJS.ProcessEnv = process.env) {
  const profile = role === '--serve-app' && process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  return startChild<Ready>(__filename, role, { env, execArgv: profile });
}

async function upload(base: string, bucketKey: string, name: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([`bench file ${name}\n`], { type: 'text/plain' }), name);
  const res = await fetch(`${base}/storage/v1/objects`, { method: 'POST', headers: { 'x-api-key': bucketKey }, body: form });
  if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

async function benchEngine(engine: 'postgres' | 'pglite', barePort: number): Promise<void> {
  const { child, ready } = await start('--serve-app', { ...process.env, BENCH_ENGINE: engine });
  try {
    const base = `http://127.0.0.1:${ready.port}/api`;
    const dev = await post(base, '/register', { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'stopwatch horse 1' });
    const auth = { authorization: `Bearer ${dev.token as string}` };
    const created = await post(base, '/create-project', { projectName: 'Bench', subdomain: `bench${Date.now()}` }, auth);
    const projectId = (created.project as { id: string }).id;
    const authKey = (await post(base, `/project/${projectId}/authentication-details`, {}, auth)).api_key as string;
    const bucketKey = (await post(base, `/project/${projectId}/bucket-details`, {}, auth)).api_key as string;
    const session = await post(base + '/auth/v1', '/signup', { email: 'enduser@example.com', password: 'end user password 1' }, { 'x-api-key': authKey });
    for (let i = 0; i < 20; i++) await upload(base, bucketKey, `file-${i}.txt`);

    const calls: [string, Record<string, unknown>][] = [
      ['bare Fastify GET /bare (own process)', { url: `http://127.0.0.1:${barePort}/bare` }],
      ['POST /api/verify-token', { url: `${base}/verify-token`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: dev.token }) }],
      ['GET /api/auth/v1/user', { url: `${base}/auth/v1/user`, headers: { 'x-api-key': authKey, authorization: `Bearer ${session.access_token as string}` } }],
      ['GET /api/storage/v1/objects (20 files)', { url: `${base}/storage/v1/objects`, headers: { 'x-api-key': bucketKey } }],
    ];
    console.log(`\n${engine === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'} (${ready.driver}): ${SECONDS} s per run, Node ${process.version}, ${os.cpus().length} CPUs`);
    console.log(`  ${'call'.padEnd(40)} ${'conns'.padStart(5)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'non-2xx'.padStart(8)}  ratio to bare`);
    for (const connections of CONNECTIONS) {
      let bareRate = 0;
      for (const [name, opts] of calls) {
        if (process.env.BENCH_ONLY && !name.startsWith('bare') && !name.includes(process.env.BENCH_ONLY)) continue;
        await autocannon({ ...opts, connections, duration: 1 }); // warm-up
        const r = await autocannon({ ...opts, connections, duration: SECONDS });
        if (name.startsWith('bare')) bareRate = r.requests.average;
        const ratio = name.startsWith('bare') ? '' : fmt(r.requests.average / bareRate, 3);
        console.log(
          `  ${name.padEnd(40)} ${String(connections).padStart(5)} ${fmt(r.requests.average).padStart(9)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${String(r.errors + r.timeouts).padStart(7)} ${String(r.non2xx).padStart(8)}  ${ratio}`,
        );
      }
    }
  } finally {
    await stopChild(child);
  }
}

async function main(): Promise<void> {
  const bare = await start('--serve-bare');
  try {
    const engines: ('postgres' | 'pglite')[] = process.env.DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];
    console.log('API bench: goals on PostgreSQL: verify-token ≥ 0.3 × the bare route, auth/v1/user ≥ 0.2 ×, p99 < 50 ms at 200 connections, 0 errors');
    for (const engine of engines) await benchEngine(engine, bare.ready.port);
  } finally {
    await stopChild(bare.child);
  }
}

if (process.argv.includes('--serve-app')) void serveApp();
else if (process.argv.includes('--serve-bare')) void serveBare();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
