// The Docker adapter against a fake Docker Engine on a unix socket (no engine runs here): the
// calls it makes, the limits it asks for, and how it reads stats and logs.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DockerRuntime, demux, dockerPercentages } from '../../server/src/modules/hosting/runtime/runtime.docker';
import type { SiteSpec } from '../../server/src/modules/hosting/runtime/runtime';

interface Call {
  method: string;
  url: string;
  body?: Record<string, any>;
}

let calls: Call[];
let server: http.Server;
let socketPath: string;

const frame = (stream: number, text: string) => {
  const payload = Buffer.from(text);
  const head = Buffer.alloc(8);
  head[0] = stream;
  head.writeUInt32BE(payload.length, 4);
  return Buffer.concat([head, payload]);
};

beforeAll(async () => {
  socketPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fake-docker-')), 'docker.sock');
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      calls.push({ method: req.method!, url: req.url!, body: raw ? JSON.parse(raw) : undefined });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const url = req.url!.replace(/^\/v1\.43/, '');
      if (req.method === 'POST' && url.startsWith('/containers/create')) return json(201, { Id: 'c0ffee', Warnings: [] });
      if (req.method === 'POST' && url === '/containers/c0ffee/start') return res.writeHead(204).end();
      if (req.method === 'GET' && url === '/containers/c0ffee/json') return json(200, { Id: 'c0ffee', NetworkSettings: { Ports: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '49153' }] } } });
      if (req.method === 'GET' && url.startsWith('/containers/c0ffee/stats')) {
        return json(200, {
          cpu_stats: { cpu_usage: { total_usage: 400_000_000 }, system_cpu_usage: 20_000_000_000, online_cpus: 2 },
          precpu_stats: { cpu_usage: { total_usage: 300_000_000 }, system_cpu_usage: 19_000_000_000 },
          memory_stats: { usage: 120 * 1048576, limit: 512 * 1048576, stats: { inactive_file: 20 * 1048576 } },
        });
      }
      if (req.method === 'GET' && url.startsWith('/containers/c0ffee/logs')) {
        res.writeHead(200, { 'content-type': 'application/vnd.docker.multiplexed-stream' });
        return res.end(Buffer.concat([frame(1, 'listening on 8080\n'), frame(2, 'a warning\n')]));
      }
      if (req.method === 'POST' && url.startsWith('/containers/c0ffee/stop')) return res.writeHead(204).end();
      if (req.method === 'DELETE' && url.startsWith('/containers/c0ffee')) return res.writeHead(204).end();
      json(404, { message: `no such route ${req.method} ${url}` });
    });
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
});
beforeEach(() => {
  calls = [];
});
afterAll(() => new Promise((r) => server.close(r)));

const spec: SiteSpec = { projectId: 'p1', deploymentId: 'd1', kind: 'node', dir: '/data/hosting/cache/d1', entry: 'server.js' };

test('ensure creates a locked-down container, starts it and finds its published port', async () => {
  const rt = new DockerRuntime({ socketPath, waitReady: false, siteUid: async () => 1900000007 });
  const up = await rt.ensure(spec);
  expect(up).toEqual({ host: '127.0.0.1', port: 49153 });
  expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
    'POST /v1.43/containers/create?name=hostbase-site-d1',
    'POST /v1.43/containers/c0ffee/start',
    'GET /v1.43/containers/c0ffee/json',
  ]);
  const body = calls[0].body!;
  expect(body).toMatchObject({
    Image: 'node:20-bookworm-slim',
    Cmd: ['node', '--max-old-space-size=256', 'server.js'],
    User: '1900000007:1900000007',
    Env: ['PORT=8080', 'NODE_ENV=production'],
    Labels: { 'hostbase.project': 'p1', 'hostbase.deployment': 'd1' },
  });
  expect(body.HostConfig).toMatchObject({
    Binds: ['/data/hosting/cache/d1:/site:ro'],
    ReadonlyRootfs: true,
    CapDrop: ['ALL'],
    SecurityOpt: ['no-new-privileges'],
    NetworkMode: 'bridge',
    Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 1024 }],
    PidsLimit: 256,
    Memory: 512 * 1024 * 1024,
    PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
  });
  expect(rt.running('p1')).toEqual({ deploymentId: 'd1', upstream: up });
  // A second ensure of the same deployment makes no calls.
  calls = [];
  await rt.ensure(spec);
  expect(calls).toEqual([]);
});

test('stats use the docker stats formulas; logs are demultiplexed', async () => {
  const rt = new DockerRuntime({ socketPath, waitReady: false });
  await rt.ensure(spec);
  expect(await rt.stats('p1')).toEqual({ cpuPercent: 20, memPercent: 19.53, status: 'running' });
  expect(await rt.logs('d1')).toBe('listening on 8080\na warning\n');
  expect(await rt.stats('other')).toBeUndefined();
});

test('retire stops and removes the project\'s other containers', async () => {
  const rt = new DockerRuntime({ socketPath, waitReady: false });
  await rt.ensure(spec);
  calls = [];
  await rt.retire('p1', 'd1');
  expect(calls).toEqual([]);
  await rt.retire('p1');
  expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /v1.43/containers/c0ffee/stop?t=5', 'DELETE /v1.43/containers/c0ffee?force=true']);
  expect(rt.running('p1')).toBeUndefined();
});

test('a failed create is a start error with the engine\'s message', async () => {
  const rt = new DockerRuntime({ socketPath: socketPath + '.missing', waitReady: false });
  await expect(rt.ensure(spec)).rejects.toThrow();
  expect(demux(Buffer.alloc(0))).toBe('');
  expect(dockerPercentages({ cpu_stats: { cpu_usage: { total_usage: 1 }, system_cpu_usage: 1 }, precpu_stats: { cpu_usage: { total_usage: 1 } }, memory_stats: { usage: 0, limit: 0 } })).toEqual({ cpuPercent: 0, memPercent: 0 });
});
