// Noisy-neighbour bench: `npm run bench:noisy-neighbour` (or `npx tsx bench/noisy-neighbour.ts`).
//
// What a tenant looping the dearest data-API call the contract accepts does to everybody else, on
// the default path (embedded PGlite, as `npm start` runs it) and, with DATABASE_URL, on
// PostgreSQL. A real server process (bench/server-process.ts) with the default bounds; an end user
// of one project stores megabyte rows and then loops, BENCH_ATTACKERS calls at a time, a select
// with a 256-character like pattern that matches nowhere (the statement runs into the statement
// timeout). The victim is `GET /api/health` (one statement, as every platform call needs), measured
// twice in each phase, without and then with the attacker looping:
//   - wrk (closed loop, 4 connections): p50/p99 and requests per second;
//   - an open-loop probe (one request every 50 ms on a new connection, latency from when it was
//     due), so a stall counts for every request it delays, not just those in flight.
// Printed: the victims' figures per phase, the attacker's answers by status, and how often the
// embedded database's worker was restarted. Figures only: nothing here asserts anything.
// Options (env): BENCH_SECONDS (per phase, default 15), BENCH_ATTACKERS (default 4),
// BENCH_ONLY=pglite,postgres, BENCH_SERVER=tsx|dist, DATABASE_URL (PostgreSQL too).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fmt, post } from './http';
import { benchDatabase, startServer, stopServer, type Server } from './server-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 4);
const BIG_ROWS = 8;
const DEAREST = { filters: [{ column: 'body', op: 'like', value: '%' + 'a'.repeat(254) + 'b' }], count: true };

interface Tenant {
  base: string;
  key: string;
  userToken: string;
}

/** A developer, a project with a table `docs` (rule signed_in) and a signed-in end user, over HTTP. */
async function tenant(base: string, name: string): Promise<Tenant> {
  const email = `${name}-${Date.now()}@example.com`;
  const { token } = (await post(base, '/api/register', { name, email, password: 'correct horse battery' })) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const { project } = (await post(base, '/api/create-project', { projectName: name, subdomain: `${name}-${Date.now().toString(36)}` }, auth)) as { project: { id: string } };
  const { api_key: key } = (await post(base, `/api/project/${project.id}/authentication-details`, {}, auth)) as { api_key: string };
  await post(base, `/api/project/${project.id}/database/create_table`, { name: 'docs', columns: [{ name: 'body', type: 'text', not_null: true }], access: 'signed_in' }, auth);
  const user = (await post(base, '/api/auth/v1/signup', { email: `user-${email}`, password: 'correct horse battery' }, { 'x-api-key': key })) as { access_token: string };
  return { base, key, userToken: user.access_token };
}

/** wrk's latency line ("99%   12.34ms") in milliseconds. */
function wrkMs(out: string, pct: string): number {
  const m = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
}

interface WrkFigures {
  p50: number;
  p99: number;
  rps: number;
}

function wrk(url: string, seconds: number): Promise<WrkFigures> {
  return new Promise((resolve, reject) =>
    execFile('wrk', ['-t1', '-c4', `-d${seconds}s`, '--latency', '--timeout', '30s', url], (err, out) => {
      if (err) return reject(new Error(`wrk: ${err.message} (apt-get install -y wrk)`));
      resolve({ p50: wrkMs(out, '50'), p99: wrkMs(out, '99'), rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN) });
    }),
  );
}

function get(port: number, p: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: p, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

interface ProbeFigures {
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

/** One request every 50 ms for `seconds`; latency from when each was due (open loop). */
async function probe(port: number, seconds: number): Promise<ProbeFigures> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const all: Promise<void>[] = [];
  for (let i = 0; i < seconds * 20; i++) {
    const due = started + i * 50;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    all.push(
      get(port, '/api/health').then(
        (status) => {
          if (status !== 200) failed++;
          latencies.push(performance.now() - due);
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(all);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1] ?? NaN, failed };
}

interface Phase {
  label: string;
  wrk: WrkFigures;
  probe: ProbeFigures;
}

async function victims(server: Server, label: string): Promise<Phase> {
  const [w, p] = await Promise.all([wrk(`http://127.0.0.1:${server.port}/api/health`, SECONDS), probe(server.port, SECONDS)]);
  return { label, wrk: w, probe: p };
}

/** BENCH_ATTACKERS loops of the dearest select until stop(); the answers' statuses counted. */
function attack(t: Tenant): { stop(): Promise<Record<number, number>> } {
  const statuses: Record<number, number> = {};
  let stopping = false;
  const loop = async () => {
    while (!stopping) {
      const res = await fetch(`${t.base}/api/db/v1/docs/select`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': t.key, authorization: `Bearer ${t.userToken}` },
        body: JSON.stringify(DEAREST),
      }).catch(() => undefined);
      await res?.arrayBuffer();
      const status = res?.status ?? 0;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  const loops = Array.from({ length: ATTACKERS }, loop);
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
      return statuses;
    },
  };
}

async function run(label: string, dataDir: string, databaseUrl?: string): Promise<void> {
  const server = await startServer(dataDir, databaseUrl);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const attacker = await tenant(base, 'attacker');
    const big = 'a'.repeat(1_000_000);
    for (let i = 0; i < BIG_ROWS; i++) await post(base, '/api/db/v1/docs/insert', { rows: [{ body: big }] }, { 'x-api-key': attacker.key, authorization: `Bearer ${attacker.userToken}` });
    await victims(server, 'warm-up');
    const quiet = await victims(server, 'no attacker');
    const restartsBefore = restarts(server);
    const loops = attack(attacker);
    // The first statement is running when the victims start.
    await new Promise((r) => setTimeout(r, 1000));
    const noisy = await victims(server, `attacker looping (${ATTACKERS} at a time)`);
    const statuses = await loops.stop();
    const ms = (n: number) => `${fmt(n, n < 10 ? 2 : 0)} ms`.padStart(10);
    console.log(`\n${label} (${server.mode}), victim GET /api/health, ${SECONDS} s per phase`);
    console.log(`  ${'phase'.padEnd(34)} ${'wrk p50'.padStart(10)} ${'wrk p99'.padStart(10)} ${'wrk req/s'.padStart(10)}   ${'probe p50'.padStart(10)} ${'probe p99'.padStart(10)} ${'probe max'.padStart(10)}`);
    for (const ph of [quiet, noisy])
      console.log(`  ${ph.label.padEnd(34)} ${ms(ph.wrk.p50)} ${ms(ph.wrk.p99)} ${fmt(ph.wrk.rps).padStart(10)}   ${ms(ph.probe.p50)} ${ms(ph.probe.p99)} ${ms(ph.probe.max)}${ph.probe.failed ? `  (${ph.probe.failed} failed)` : ''}`);
    const answers = Object.entries(statuses).map(([s, n]) => `${n} x ${s}`).join(', ');
    console.log(`  attacker's answers: ${answers}; embedded database restarts: ${databaseUrl ? 'n/a' : restarts(server) - restartsBefore}`);
  } finally {
    await stopServer(server);
  }
}

/** The worker's reopenings the server logged (a warning each, pglite-host.ts). */
const restarts = (server: Server) => server.output().split('reopening its data dir').length - 1;

async function main(): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? 'pglite,postgres').split(',');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-bench-noisy-'));
  console.log(`noisy-neighbour bench: node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  try {
    if (only.includes('pglite')) await run('PGlite (npm start)', path.join(work, 'pglite'));
    if (only.includes('postgres')) {
      if (!process.env.DATABASE_URL) console.log('\n(PostgreSQL skipped: DATABASE_URL is not set)');
      else {
        const database = await benchDatabase();
        try {
          await run('PostgreSQL', path.join(work, 'pg'), database.url);
        } finally {
          await database.drop();
        }
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
