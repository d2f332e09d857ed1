// wrk, the C load generator, as the API benches drive it: one thread on its own core, so the
// server under test (on the other core) is the bottleneck, not the generator (autocannon in one
// Node process topped out near 15,000 req/s, below what a bare Fastify route serves). A Lua script
// sets the method, headers and body, and prints the figures as one JSON line when wrk is done.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface WrkCall {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkResult {
  requests: number;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answers other than 2xx/3xx. */
  non2xx: number;
}

/** The wrk binary, installed from Debian's package when missing and this process may. */
export function ensureWrk(): string {
  const found = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => fs.existsSync(p));
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.log('bench: installing wrk (apt-get install wrk)…');
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'wrk'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return '/usr/bin/wrk';
  }
  throw new Error('wrk is not installed: apt-get install wrk (Debian), then run the bench again');
}

const lua = (call: WrkCall) => `
wrk.method = ${JSON.stringify(call.method ?? 'GET')}
${call.body !== undefined ? `wrk.body = ${JSON.stringify(call.body)}` : ''}
${Object.entries(call.headers ?? {}).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`).join('\n')}
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

/** One wrk run: `connections` keep-alive connections for `seconds`, one generator thread. */
export async function wrk(call: WrkCall, connections: number, seconds: number, threads = 1): Promise<WrkResult> {
  const bin = ensureWrk();
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-wrk-')), 'call.lua');
  fs.writeFileSync(script, lua(call));
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(bin, [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, call.url], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (c) => (text += c));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}:\n${text}`))));
    });
    const line = /WRK_JSON (\{.*\})/.exec(out);
    if (!line) throw new Error(`wrk printed no figures:\n${out}`);
    const j = JSON.parse(line[1]!) as { requests: number; duration_us: number; p50_us: number; p99_us: number; errors: number; non2xx: number };
    return { requests: j.requests, rate: j.requests / (j.duration_us / 1e6), p50: j.p50_us / 1000, p99: j.p99_us / 1000, errors: j.errors, non2xx: j.non2xx };
  } finally {
    fs.rmSync(path.dirname(script), { recursive: true, force: true });
  }
}
