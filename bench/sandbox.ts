// Sandboxed sites bench: `npm run bench:sandbox` (or `npx tsx bench/sandbox.ts`). Needs what the
// sandbox needs (Linux, root, bubblewrap; nftables for egress).
//
// A child process serves the real app (PGlite in a temp dir, or DATABASE_URL) with one deployed
// Node site, and runs the same server.js as a plain `node` process on loopback: the baseline is the
// site's own code with no gateway and no sandbox. This process drives both with autocannon and
// prints req/s, p50/p99 and the ratio; then the time from a deploy request to a live site, beside
// the time a plain `node server.js` takes to accept its first connection.
// Figures only: nothing here asserts anything about time.
// Options (env): BENCH_SECONDS (default 5), BENCH_CONNECTIONS (default 20), BENCH_ROUNDS (default 3).
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from '../test/helpers/http-request';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types; this is the part we use.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SITE = `require('http').createServer((q, r) => { r.setHeader('content-type', 'application/json'); r.end(JSON.stringify({ hello: 'site', url: q.url })); }).listen(process.env.PORT);`;

interface Ready {
  appPort: number;
  /** The live site's relay socket: the sandbox without the gateway in front. */
  socketPath: string;
  barePort: number;
  host: string;
  deployMs: number[];
  bareStartMs: number[];
}

async function firstAccept(port: number): Promise<void> {
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), r(true)));
      s.on('error', () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function serve(): Promise<void> {
  const { buildApp } = await import('../server/src/app');
  const { loadConfig } = await import('../server/src/config');
  const { makeZip, multipart } = await import('../test/hosting/zips');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-bench-sandbox-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '12' } as Record<string, string>);
  const app = await buildApp({ ...config, webDir: undefined }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as net.AddressInfo).port;
  const json = (url: string, body: unknown, token?: string) =>
    request(port, 'POST', url, JSON.stringify(body), { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) });
  const reg = await json('/api/register', { name: 'Bench', email: `bench-${Date.now()}@example.com`, password: 'Tq8#vLm2-ZpWx9rK' });
  const token = JSON.parse(reg.body).token as string;
  const subdomain = `bench${Date.now().toString(36)}`;
  const projectId = JSON.parse((await json('/api/create-project', { projectName: 'Bench', subdomain }, token)).body).project.id as string;
  const host = `${subdomain}.localhost:${port}`;
  const deployMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const form = multipart({ domain: host, projectId, type: 'Node' }, { data: makeZip([{ name: 'server.js', data: SITE + `\n// round ${i}` }]) });
    const started = performance.now();
    const res = await request(port, 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, form.payload, { ...form.headers, authorization: `Bearer ${token}` });
    if (res.status !== 200) throw new Error(`deploy: ${res.status} ${res.body}`);
    deployMs.push(performance.now() - started);
  }

  // The baseline: the same code, a plain process on loopback.
  const siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-bench-bare-'));
  fs.writeFileSync(path.join(siteDir, 'server.js'), SITE);
  const bareStartMs: number[] = [];
  let bare: ReturnType<typeof spawn> | undefined;
  let barePort = 0;
  for (let i = 0; i < ROUNDS; i++) {
    bare?.kill('SIGKILL');
    barePort = 30000 + Math.floor(Math.random() * 20000);
    const started = performance.now();
    bare = spawn(process.execPath, ['--max-old-space-size=256', 'server.js'], { cwd: siteDir, env: { PORT: String(barePort) }, stdio: 'ignore' });
    await firstAccept(barePort);
    bareStartMs.push(performance.now() - started);
  }
  const runRoot = path.join(os.tmpdir(), 'hostbase-sites');
  const mine = fs.readdirSync(runRoot).filter((n) => n.startsWith(`${process.pid}-`));
  const socketPath = path.join(runRoot, mine[mine.length - 1], 'run', 'http.sock');
  const ready: Ready = { appPort: port, socketPath, barePort, host, deployMs, bareStartMs };
  process.send!(ready);
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    bare?.kill('SIGKILL');
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(siteDir, { recursive: true, force: true });
    process.exit(0);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  // BENCH_PROF=1: the server writes a CPU profile (.cpuprofile) into the current folder.
  const child = fork(__filename, ['serve'], { execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])], stdio: 'inherit' });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  const run = (port: number, headers: Record<string, string>) => autocannon({ url: `http://127.0.0.1:${port}/hello`, headers, connections: CONNECTIONS, duration: SECONDS });
  await run(ready.barePort, {}); // warm-up, both
  await run(ready.appPort, { host: ready.host });
  const relay = () => autocannon({ url: 'http://localhost/hello', socketPath: ready.socketPath, connections: CONNECTIONS, duration: SECONDS });
  const health = () => autocannon({ url: `http://127.0.0.1:${ready.appPort}/api/health`, connections: CONNECTIONS, duration: SECONDS });
  const results: { sandboxed: AutocannonResult[]; bare: AutocannonResult[]; relay: AutocannonResult[]; health: AutocannonResult[] } = { sandboxed: [], bare: [], relay: [], health: [] };
  for (let i = 0; i < ROUNDS; i++) {
    results.health.push(await health());
    results.bare.push(await run(ready.barePort, {}));
    results.relay.push(await relay());
    results.sandboxed.push(await run(ready.appPort, { host: ready.host }));
  }
  const line = (name: string, rs: AutocannonResult[]) => {
    const rps = median(rs.map((r) => r.requests.average));
    const p50 = median(rs.map((r) => r.latency.p50));
    const p99 = median(rs.map((r) => r.latency.p99));
    const bad = rs.reduce((a, r) => a + r.non2xx + r.errors, 0);
    console.log(`${name.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s  p50 ${p50} ms  p99 ${p99} ms${bad ? `  (${bad} non-2xx/errors)` : ''}`);
    return rps;
  };
  console.log(`GET /hello, ${CONNECTIONS} connections, ${SECONDS} s, median of ${ROUNDS} alternated rounds`);
  const b = line('bare node server.js (baseline)', results.bare);
  line('the platform: GET /api/health (no site)', results.health);
  const r = line('sandbox relay (unix socket) -> same server.js', results.relay);
  const s = line('gateway -> sandbox relay -> same server.js', results.sandboxed);
  console.log(`ratios to bare: relay ${(r / b).toFixed(2)}, gateway + relay ${(s / b).toFixed(2)}`);
  console.log(`deploy of a one-file Node site until live (sandbox set-up included): median ${median(ready.deployMs).toFixed(0)} ms (${ready.deployMs.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`plain node server.js until it accepts (baseline): median ${median(ready.bareStartMs).toFixed(0)} ms (${ready.bareStartMs.map((x) => x.toFixed(0)).join(', ')})`);
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
}

if (process.argv[2] === 'serve') void serve();
else void main();
