// End-user auth bench: `npm run bench:auth` (or `npx tsx bench/auth.ts`).
//
// A child process serves the real app (PGlite in a temp dir, or DATABASE_URL) and, in the same
// process, a bare Fastify route; this process drives both with autocannon, so the load generator
// doesn't share the servers' event loop. Printed:
//   - GET /api/auth/v1/user (auth key lookup + JWT check + user row) req/s beside the bare route's,
//     and their ratio;
//   - sign-ins per second (scrypt-bound) with the password hash parameters beside it.
// Figures only: nothing here asserts anything about time.
// Options (env): BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 20), PASSWORD_HASH_COST
// (default the platform's 15), DATABASE_URL.
import os from 'node:os';
import { autocannon, fmt, onStop, portOf, post, serveApp, serveBare, startChild, stopChild } from './http';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Ready {
  appPort: number;
  barePort: number;
  hash: { algorithm: string; N: number; r: number; p: number; memoryMiB: number };
  driver: string;
}

async function serve(): Promise<void> {
  const { app, close } = await serveApp('auth');
  const bare = await serveBare();
  const ready: Ready = { appPort: portOf(app), barePort: portOf(bare), hash: app.deps.passwords.params, driver: app.deps.database.driver };
  process.send!(ready);
  onStop(async () => {
    await bare.close();
    await close();
  });
}

async function main(): Promise<void> {
  const { child, ready } = await startChild<Ready>(__filename, '--serve');
  try {
    const base = `http://127.0.0.1:${ready.appPort}/api`;
    const dev = await post(base, '/register', { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'stopwatch horse 1' });
    const devToken = dev.token as string;
    const created = await post(base, '/create-project', { projectName: 'Bench', subdomain: `bench${Date.now()}` }, { authorization: `Bearer ${devToken}` });
    const projectId = (created.project as { id: string }).id;
    const key = (await post(base, `/project/${projectId}/authentication-details`, {}, { authorization: `Bearer ${devToken}` })).api_key as string;
    const credentials = { email: 'enduser@example.com', password: 'end user password 1' };
    const session = await post(base + '/auth/v1', '/signup', credentials, { 'x-api-key': key });
    const access = session.access_token as string;

    console.log(`end-user auth bench: ${SECONDS} s per run, ${CONNECTIONS} connections, database ${ready.driver}, Node ${process.version}`);

    const run = (opts: Record<string, unknown>) => autocannon({ duration: SECONDS, connections: CONNECTIONS, ...opts });
    // Warm-up of both, then the measured runs.
    await run({ url: `http://127.0.0.1:${ready.barePort}/bare`, duration: 1 });
    await run({ url: `${base}/auth/v1/user`, headers: { 'x-api-key': key, authorization: `Bearer ${access}` }, duration: 1 });
    const bare = await run({ url: `http://127.0.0.1:${ready.barePort}/bare` });
    const user = await run({ url: `${base}/auth/v1/user`, headers: { 'x-api-key': key, authorization: `Bearer ${access}` } });
    if (user.non2xx) console.log(`  (warning: ${user.non2xx} non-2xx answers on /user)`);
    console.log(`  bare Fastify GET /bare            ${fmt(bare.requests.average).padStart(8)} req/s   p50 ${bare.latency.p50} ms  p99 ${bare.latency.p99} ms`);
    console.log(`  GET /api/auth/v1/user            ${fmt(user.requests.average).padStart(8)} req/s   p50 ${user.latency.p50} ms  p99 ${user.latency.p99} ms`);
    console.log(`  ratio /user : bare               ${fmt(user.requests.average / bare.requests.average, 3)}`);

    // Sign-ins: each request from its own address (TRUST_PROXY on in the bench server), so the
    // per-IP limit doesn't cut the run short; successes don't count against the per-user limit.
    let n = 0;
    const signIn = await run({
      url: `${base}/auth/v1/signin`,
      method: 'POST',
      connections: Math.min(CONNECTIONS, 8),
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
      setupClient: (client: { setHeaders(h: Record<string, string>): void; on(e: string, f: () => void): void }) => {
        const next = () => {
          n += 1;
          client.setHeaders({ 'x-api-key': key, 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
        };
        next();
        client.on('response', next);
      },
    });
    const h = ready.hash;
    if (signIn.non2xx) console.log(`  (warning: ${signIn.non2xx} non-2xx answers on /signin)`);
    console.log(
      `  POST /api/auth/v1/signin         ${fmt(signIn.requests.average, 1).padStart(8)} sign-ins/s   p50 ${signIn.latency.p50} ms   ` +
        `hash ${h.algorithm} N=2^${Math.log2(h.N)} r=${h.r} p=${h.p} (${h.memoryMiB} MiB), UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? 4}, ${os.cpus().length} CPUs`,
    );
  } finally {
    await stopChild(child);
  }
}

if (process.argv.includes('--serve')) void serve();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
