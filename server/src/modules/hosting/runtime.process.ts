// The default runtime: one child process per site on this machine. Uploaded code is untrusted, so
// each process runs as the unprivileged user `hostbase-site` (when we are root and it exists),
// under prlimit (address space, processes, open files), in its own copy of the deployment outside
// DATA_DIR, with an environment of PORT, NODE_ENV and PATH only. A crash restarts it with
// exponential back-off; stdout and stderr are kept (tail) as the runtime log.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ProcSampler } from './stats';
import { RuntimeStartError, type Runtime, type RuntimeStats, type SiteSpec, type Upstream } from './runtime';

export interface ProcessRuntimeOptions {
  log: FastifyBaseLogger;
  /** Where per-deployment working copies go; must not be inside DATA_DIR. */
  runRoot?: string;
  user?: string;
  /** RLIMIT_AS: Node reserves much address space up front, so 1 GiB is its practical floor. */
  addressSpaceBytes?: number;
  maxProcesses?: number;
  maxOpenFiles?: number;
  startTimeoutMs?: number;
}

const LOG_TAIL = 64 * 1024;
const SAFE_PATH = '/usr/local/bin:/usr/bin:/bin';

interface Proc {
  spec: SiteSpec;
  port: number;
  child?: ChildProcess;
  status: RuntimeStats['status'];
  restarts: number;
  startedAt: number;
  stopping: boolean;
  timer?: NodeJS.Timeout;
}

export class ProcessRuntime implements Runtime {
  readonly name = 'process';
  private readonly procs = new Map<string, Proc>(); // by deploymentId
  private readonly starting = new Map<string, Promise<Upstream>>();
  private readonly logsByDeployment = new Map<string, string>();
  private readonly sampler = new ProcSampler();
  private readonly identity: { uid: number; gid: number } | undefined;
  private readonly runRoot: string;
  private readonly prlimit = which('prlimit');

  constructor(private readonly o: ProcessRuntimeOptions) {
    this.runRoot = o.runRoot ?? path.join(os.tmpdir(), 'hostbase-sites');
    fs.mkdirSync(this.runRoot, { recursive: true, mode: 0o711 });
    this.identity = siteIdentity(o.user ?? 'hostbase-site', o.log);
    if (!this.prlimit) o.log.warn('prlimit not found: site processes run without memory, process and file limits');
  }

  running(projectId: string) {
    for (const p of this.procs.values()) {
      if (p.spec.projectId === projectId && p.status === 'running') return { deploymentId: p.spec.deploymentId, upstream: { host: '127.0.0.1', port: p.port } };
    }
    return undefined;
  }

  ensure(spec: SiteSpec): Promise<Upstream> {
    const p = this.procs.get(spec.deploymentId);
    if (p && p.status === 'running') return Promise.resolve({ host: '127.0.0.1', port: p.port });
    if (p && p.status === 'restarting') return this.waitRestarted(p);
    let pending = this.starting.get(spec.deploymentId);
    if (!pending) {
      pending = this.start(spec).finally(() => this.starting.delete(spec.deploymentId));
      this.starting.set(spec.deploymentId, pending);
    }
    return pending;
  }

  private async start(spec: SiteSpec): Promise<Upstream> {
    const workdir = path.join(this.runRoot, spec.deploymentId);
    if (!fs.existsSync(workdir)) {
      const tmp = `${workdir}.tmp-${process.pid}-${Date.now()}`;
      await fsp.cp(spec.dir, tmp, { recursive: true });
      if (this.identity) await chownTree(tmp, this.identity.uid, this.identity.gid);
      await fsp.chmod(tmp, 0o700);
      await fsp.rename(tmp, workdir);
    }
    const proc: Proc = { spec, port: await freePort(), status: 'starting', restarts: 0, startedAt: Date.now(), stopping: false };
    this.procs.set(spec.deploymentId, proc);
    this.spawn(proc, workdir);
    try {
      await this.waitReady(proc);
    } catch (err) {
      await this.stopProc(proc);
      throw err;
    }
    return { host: '127.0.0.1', port: proc.port };
  }

  private command(spec: SiteSpec, port: number): string[] {
    switch (spec.kind) {
      case 'node':
        return [process.execPath, '--max-old-space-size=256', spec.entry];
      case 'php':
        return [which('php') ?? 'php', '-S', `127.0.0.1:${port}`, '-t', '.'];
      case 'flask': {
        // Debian's python3 has python3-flask; the module name is the entry file without .py.
        const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : (which('python3') ?? 'python3');
        return [python, '-u', '-m', 'flask', '--app', spec.entry.replace(/\.py$/, ''), 'run', '--host', '127.0.0.1', '--port', String(port), '--no-reload'];
      }
    }
  }

  private spawn(proc: Proc, workdir: string): void {
    let argv = this.command(proc.spec, proc.port);
    if (this.prlimit) {
      const as = this.o.addressSpaceBytes ?? 1024 * 1024 * 1024;
      argv = [this.prlimit, `--as=${as}`, `--nproc=${this.o.maxProcesses ?? 256}`, `--nofile=${this.o.maxOpenFiles ?? 1024}`, '--', ...argv];
    }
    const child = spawn(argv[0], argv.slice(1), {
      cwd: workdir,
      env: { PORT: String(proc.port), NODE_ENV: 'production', PATH: SAFE_PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so stop() also ends whatever the site spawned.
      detached: true,
      ...(this.identity ?? {}),
    });
    proc.child = child;
    const append = (chunk: Buffer) => this.appendLog(proc.spec.deploymentId, chunk.toString('utf8'));
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    child.on('error', (err) => this.appendLog(proc.spec.deploymentId, `[hostbase] could not start: ${err.message}\n`));
    child.on('exit', (code, signal) => {
      if (proc.child !== child) return;
      proc.child = undefined;
      if (proc.timer) clearTimeout(proc.timer);
      if (proc.stopping) return;
      this.appendLog(proc.spec.deploymentId, `[hostbase] process exited (${signal ?? `code ${code}`})\n`);
      // Back-off doubles per crash (0.5 s .. 30 s) and resets after a minute of healthy running.
      if (Date.now() - proc.startedAt > 60_000) proc.restarts = 0;
      const delay = Math.min(30_000, 500 * 2 ** proc.restarts++);
      proc.status = 'restarting';
      proc.timer = setTimeout(() => {
        if (proc.stopping) return;
        proc.startedAt = Date.now();
        this.spawn(proc, workdir);
        void this.waitReady(proc).catch(() => undefined);
      }, delay);
      proc.timer.unref();
    });
  }

  private async waitReady(proc: Proc): Promise<void> {
    const deadline = Date.now() + (this.o.startTimeoutMs ?? 15_000);
    while (Date.now() < deadline) {
      if (proc.stopping) throw new RuntimeStartError('stopped while starting', '');
      if (!proc.child) break; // exited before listening
      if (await canConnect(proc.port)) {
        proc.status = 'running';
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = await this.logs(proc.spec.deploymentId);
    throw new RuntimeStartError(`The ${proc.spec.kind} site did not start listening on its PORT`, log.slice(-4000));
  }

  /** A crashed process comes back after its back-off; callers wait rather than start a second one. */
  private async waitRestarted(proc: Proc): Promise<Upstream> {
    const deadline = Date.now() + 35_000;
    while (Date.now() < deadline && !proc.stopping) {
      if (proc.status === 'running') return { host: '127.0.0.1', port: proc.port };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new RuntimeStartError('The site is restarting after a crash', await this.logs(proc.spec.deploymentId));
  }

  async retire(projectId: string, keepDeploymentId?: string): Promise<void> {
    const victims = [...this.procs.values()].filter((p) => p.spec.projectId === projectId && p.spec.deploymentId !== keepDeploymentId);
    await Promise.all(victims.map((p) => this.stopProc(p)));
  }

  private async stopProc(proc: Proc): Promise<void> {
    proc.stopping = true;
    proc.status = 'stopped';
    if (proc.timer) clearTimeout(proc.timer);
    this.procs.delete(proc.spec.deploymentId);
    const child = proc.child;
    if (child?.pid) {
      this.sampler.forget(child.pid);
      const exited = new Promise((r) => child.once('exit', r));
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    await fsp.rm(path.join(this.runRoot, proc.spec.deploymentId), { recursive: true, force: true });
  }

  async stats(projectId: string): Promise<RuntimeStats | undefined> {
    const proc = [...this.procs.values()].find((p) => p.spec.projectId === projectId && p.status === 'running') ??
      [...this.procs.values()].find((p) => p.spec.projectId === projectId);
    if (!proc) return undefined;
    const pid = proc.child?.pid;
    if (!pid) return { cpuPercent: 0, memPercent: 0, status: proc.status };
    try {
      return { ...(await this.sampler.sample(pid)), status: proc.status };
    } catch {
      return { cpuPercent: 0, memPercent: 0, status: proc.status };
    }
  }

  async logs(deploymentId: string): Promise<string> {
    return this.logsByDeployment.get(deploymentId) ?? '';
  }

  private appendLog(deploymentId: string, text: string): void {
    const next = (this.logsByDeployment.get(deploymentId) ?? '') + text;
    this.logsByDeployment.set(deploymentId, next.length > LOG_TAIL ? next.slice(-LOG_TAIL) : next);
  }

  async close(): Promise<void> {
    await Promise.all([...this.procs.values()].map((p) => this.stopProc(p)));
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

function siteIdentity(user: string, log: FastifyBaseLogger): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) {
    log.warn({ user }, 'not running as root: site processes run as the platform user (create the site user and run as root to isolate them)');
    return undefined;
  }
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${user}:`));
  if (!line) {
    log.warn({ user }, `user ${user} does not exist: site processes run as root (create it: useradd --system --no-create-home --shell /usr/sbin/nologin ${user})`);
    return undefined;
  }
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await fsp.chown(dir, uid, gid);
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(full, uid, gid);
    else await fsp.lchown(full, uid, gid);
  }
}

function which(cmd: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
