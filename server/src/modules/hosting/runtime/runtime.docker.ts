// A Runtime on the Docker Engine API (v1.43 shape), spoken with plain HTTP over the engine's unix
// socket: no client library to keep in step with the engine. For production hosts where each
// site should get its own container: the deployment folder mounted read-only, a read-only root
// filesystem, no capabilities, memory / pids / CPU limits, an unprivileged user, and only PORT and
// NODE_ENV in the environment. Wire it with buildApp(config, { hostingRuntime: new DockerRuntime() }).
import http from 'node:http';
import net from 'node:net';
import type { Runtime, RuntimeStats, SiteSpec, Upstream } from './runtime';
import { RuntimeStartError } from './runtime';

export interface DockerRuntimeOptions {
  socketPath?: string;
  images?: Partial<Record<SiteSpec['kind'], string>>;
  memoryBytes?: number;
  pidsLimit?: number;
  nanoCpus?: number;
  /** The project's own uid (site-identities.ts): tenants never share an identity. Default nobody. */
  siteUid?: (projectId: string) => Promise<number>;
  /**
   * The Docker network sites join. Production: a user-defined bridge whose traffic to the host
   * and to private ranges is dropped by the host firewall (see README), never `host`.
   */
  network?: string;
  maxOpenFiles?: number;
  /** Probe the published port before reporting the container ready (off in unit tests). */
  waitReady?: boolean;
  startTimeoutMs?: number;
}

const PORT = 8080;
const DEFAULT_IMAGES: Record<SiteSpec['kind'], string> = {
  node: 'node:20-bookworm-slim',
  php: 'php:8.2-cli-bookworm',
  // Any image with python3 and Flask installed (e.g. FROM python:3.11-slim + pip install flask).
  flask: 'hostbase/site-flask:latest',
};

type TcpUpstream = Extract<Upstream, { port: number }>;

interface Container {
  id: string;
  spec: SiteSpec;
  upstream: TcpUpstream;
  envVersion: number;
}

export class DockerRuntime implements Runtime {
  readonly name = 'docker';
  private readonly containers = new Map<string, Container>(); // by deploymentId

  constructor(private readonly o: DockerRuntimeOptions = {}) {}

  refusal(): string | undefined {
    return undefined; // each kind's image carries its runtime
  }

  private api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T; raw: Buffer }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        {
          socketPath: this.o.socketPath ?? '/var/run/docker.sock',
          method,
          path: `/v1.43${path}`,
          headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            let json: T = undefined as T;
            if (/json/.test(res.headers['content-type'] ?? '') && raw.length) json = JSON.parse(raw.toString('utf8')) as T;
            resolve({ status: res.statusCode ?? 0, json, raw });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  private command(spec: SiteSpec): string[] {
    if (spec.kind === 'node') return ['node', '--max-old-space-size=256', spec.entry];
    if (spec.kind === 'php') return ['php', '-S', `0.0.0.0:${PORT}`, '-t', '/site'];
    return ['python3', '-u', '-m', 'flask', '--app', spec.entry.replace(/\.py$/, ''), 'run', '--host', '0.0.0.0', '--port', String(PORT)];
  }

  /** The create body: everything the container is allowed, and nothing more. */
  createBody(spec: SiteSpec, uid = 65534, own: Record<string, string> = {}) {
    if (this.o.network === 'host') throw new RuntimeStartError('Sites never run on the host network: choose another DOCKER network.', '');
    const nofile = this.o.maxOpenFiles ?? 1024;
    return {
      Image: this.o.images?.[spec.kind] ?? DEFAULT_IMAGES[spec.kind],
      Cmd: this.command(spec),
      WorkingDir: '/site',
      User: `${uid}:${uid}`,
      // The owner's variables (site-env.ts refuses PORT and NODE_ENV), then the platform's.
      Env: [...Object.entries(own).map(([k, v]) => `${k}=${v}`), `PORT=${PORT}`, 'NODE_ENV=production'],
      ExposedPorts: { [`${PORT}/tcp`]: {} },
      Labels: { 'hostbase.project': spec.projectId, 'hostbase.deployment': spec.deploymentId },
      HostConfig: {
        Binds: [`${spec.dir}:/site:ro`],
        PortBindings: { [`${PORT}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] },
        Memory: this.o.memoryBytes ?? 512 * 1024 * 1024,
        PidsLimit: this.o.pidsLimit ?? 256,
        NanoCpus: this.o.nanoCpus ?? 1_000_000_000,
        ReadonlyRootfs: true,
        Tmpfs: { '/tmp': 'rw,noexec,size=64m' },
        CapDrop: ['ALL'],
        Ulimits: [{ Name: 'nofile', Soft: nofile, Hard: nofile }],
        NetworkMode: this.o.network ?? 'bridge',
        SecurityOpt: ['no-new-privileges'],
        // The engine restarts a crashed site with its own back-off.
        RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 10 },
      },
    };
  }

  async ensure(spec: SiteSpec): Promise<Upstream> {
    const known = this.containers.get(spec.deploymentId);
    if (known && (spec.envVersion ?? 0) <= known.envVersion) return known.upstream;
    if (known) {
      // Its environment changed: a container's is fixed at creation, so it is made again.
      this.containers.delete(spec.deploymentId);
      await this.remove(known.id);
    }
    const name = `hostbase-site-${spec.deploymentId}`;
    const uid = this.o.siteUid ? await this.o.siteUid(spec.projectId) : undefined;
    const env = spec.env ? await spec.env() : { version: spec.envVersion ?? 0, vars: {} };
    await spec.prepare?.(); // the files the container mounts
    const created = await this.api<{ Id: string; message?: string }>('POST', `/containers/create?name=${name}`, this.createBody(spec, uid, env.vars));
    if (created.status !== 201) throw new RuntimeStartError(`Docker could not create the container: ${created.json?.message ?? created.status}`, '');
    const id = created.json.Id;
    const started = await this.api<{ message?: string }>('POST', `/containers/${id}/start`);
    if (started.status !== 204 && started.status !== 304) throw new RuntimeStartError(`Docker could not start the container: ${started.json?.message ?? started.status}`, '');
    const info = await this.api<{ NetworkSettings: { Ports: Record<string, { HostIp: string; HostPort: string }[] | null> } }>('GET', `/containers/${id}/json`);
    const binding = info.json?.NetworkSettings?.Ports?.[`${PORT}/tcp`]?.[0];
    if (!binding) throw new RuntimeStartError('Docker published no port for the site', await this.logsOf(id));
    const upstream = { host: binding.HostIp === '0.0.0.0' ? '127.0.0.1' : binding.HostIp, port: Number(binding.HostPort) };
    if (this.o.waitReady !== false) await this.waitReady(id, upstream);
    this.containers.set(spec.deploymentId, { id, spec, upstream, envVersion: env.version });
    return upstream;
  }

  private async waitReady(id: string, up: TcpUpstream): Promise<void> {
    // Operational time (a start-up deadline next to real timers), not the injected clock.
    const deadline = Date.now() + (this.o.startTimeoutMs ?? 30_000);
    while (Date.now() < deadline) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = net.connect(up.port, up.host, () => (s.destroy(), resolve(true)));
        s.once('error', () => resolve(false));
      });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    const log = await this.logsOf(id);
    await this.remove(id);
    throw new RuntimeStartError('The site did not start listening on its PORT', log);
  }

  running(projectId: string) {
    for (const c of this.containers.values()) if (c.spec.projectId === projectId) return { deploymentId: c.spec.deploymentId, upstream: c.upstream };
    return undefined;
  }

  projects() {
    return [...this.containers.values()].map((c) => ({ projectId: c.spec.projectId, deploymentId: c.spec.deploymentId, envVersion: c.envVersion }));
  }

  hasProcess(projectId: string): Promise<boolean> {
    return Promise.resolve(this.projects().some((p) => p.projectId === projectId));
  }

  async retire(projectId: string, keepDeploymentId?: string): Promise<void> {
    const victims = [...this.containers.values()].filter((c) => c.spec.projectId === projectId && c.spec.deploymentId !== keepDeploymentId);
    for (const c of victims) {
      this.containers.delete(c.spec.deploymentId);
      await this.remove(c.id);
    }
  }

  private async remove(id: string): Promise<void> {
    await this.api('POST', `/containers/${id}/stop?t=5`);
    await this.api('DELETE', `/containers/${id}?force=true`);
  }

  async stats(projectId: string): Promise<RuntimeStats | undefined> {
    const c = [...this.containers.values()].find((x) => x.spec.projectId === projectId);
    if (!c) return undefined;
    const { json: s } = await this.api<DockerStats>('GET', `/containers/${c.id}/stats?stream=false`);
    return { ...dockerPercentages(s), status: 'running' };
  }

  async logs(deploymentId: string): Promise<string> {
    const c = this.containers.get(deploymentId);
    return c ? this.logsOf(c.id) : '';
  }

  private async logsOf(id: string): Promise<string> {
    const { raw } = await this.api('GET', `/containers/${id}/logs?stdout=1&stderr=1&tail=500`);
    return demux(raw);
  }

  async close(): Promise<void> {
    // Containers outlive the API process on purpose (the engine keeps serving); nothing to do.
  }
}

export interface DockerStats {
  cpu_stats: { cpu_usage: { total_usage: number }; system_cpu_usage: number; online_cpus?: number };
  precpu_stats: { cpu_usage: { total_usage: number }; system_cpu_usage?: number };
  memory_stats: { usage: number; limit: number; stats?: { inactive_file?: number } };
}

/** The `docker stats` formulas: CPU in percent of one core, memory without page cache. */
export function dockerPercentages(s: DockerStats): { cpuPercent: number; memPercent: number } {
  const cpuDelta = s.cpu_stats.cpu_usage.total_usage - s.precpu_stats.cpu_usage.total_usage;
  const sysDelta = s.cpu_stats.system_cpu_usage - (s.precpu_stats.system_cpu_usage ?? 0);
  const cpus = s.cpu_stats.online_cpus ?? 1;
  const cpuPercent = sysDelta > 0 && cpuDelta > 0 ? (cpuDelta / sysDelta) * cpus * 100 : 0;
  const used = s.memory_stats.usage - (s.memory_stats.stats?.inactive_file ?? 0);
  const memPercent = s.memory_stats.limit > 0 ? (used / s.memory_stats.limit) * 100 : 0;
  return { cpuPercent: Math.round(cpuPercent * 100) / 100, memPercent: Math.round(memPercent * 100) / 100 };
}

/** Docker's multiplexed log stream: frames of [stream, 0, 0, 0, size (u32 BE)] + payload. */
export function demux(raw: Buffer): string {
  const out: Buffer[] = [];
  let i = 0;
  while (i + 8 <= raw.length) {
    const size = raw.readUInt32BE(i + 4);
    out.push(raw.subarray(i + 8, i + 8 + size));
    i += 8 + size;
  }
  return Buffer.concat(out).toString('utf8');
}
