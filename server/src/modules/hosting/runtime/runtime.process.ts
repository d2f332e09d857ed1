// The default runtime: one sandboxed process tree per site on this machine (sandbox.ts: its own
// uid per project, mount, pid and network namespaces; cgroups.ts: memory, process and CPU
// limits). Uploaded code is hostile: when the sandbox cannot be made here, dynamic sites are
// refused (refusal()), never run without it. A crash restarts the site with exponential back-off
// and the runtime log says why it stopped (out of memory, process limit, exit code).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { detectCgroups, SiteGroup, type CgroupLayout, type GroupCounters, type Limits } from './cgroups';
import { findTool, passwdFiles, probeSandbox, sandboxArgv, SITE_PATH, SITE_PORT, type SandboxSupport } from './sandbox';
import type { SiteUidOf } from './site-identities';
import { SiteNetwork, type Egress } from './site-network';
import { RuntimeStartError, type RuntimeKind, type Runtime, type RuntimeStats, type SiteSpec, type Upstream } from './runtime';
import { DEFAULT_SITE_LIMITS } from '../../../platform/limits';
import { MemoryLogs, type RuntimeLogSink } from './runtime-logs';

export interface ProcessRuntimeOptions {
  log: FastifyBaseLogger;
  /** The project's own uid (site-identities.ts). */
  siteUid: SiteUidOf;
  /** Where per-deployment working copies go; never inside DATA_DIR. */
  runRoot?: string;
  limits?: Partial<Limits>;
  maxOpenFiles?: number;
  tmpBytes?: number;
  startTimeoutMs?: number;
  /** internet: a filtered link to the public internet (site-network.ts); none: loopback only. */
  egress?: Egress;
  /** Tests: pretend the host cannot sandbox, to check the refusal. */
  support?: SandboxSupport;
  /** A site's process exited unexpectedly: told once per crash streak (not per restart of a crash loop). */
  onCrash?: (spec: SiteSpec, cause: string) => void;
  /** Where the sites' output goes: the database (runtime-logs.ts) so every instance shows it; memory by default. */
  logs?: RuntimeLogSink;
}

export const DEFAULT_LIMITS: Limits = { ...DEFAULT_SITE_LIMITS };
/** One number per runtime in this process: two apps in one process (tests) never share a folder. */
let instances = 0;

interface Proc {
  spec: SiteSpec;
  name: string;
  dir: string;
  socketPath: string;
  group: SiteGroup;
  child?: ChildProcess;
  status: RuntimeStats['status'];
  restarts: number;
  startedAt: number;
  stopping: boolean;
  timer?: NodeJS.Timeout;
  counters: GroupCounters;
  lastExit?: string;
  /** The owner's variables it runs with (kept for restarts after a crash) and their version. */
  env: Record<string, string>;
  envVersion: number;
}

export class ProcessRuntime implements Runtime {
  readonly name = 'process';
  private readonly procs = new Map<string, Proc>(); // by deploymentId
  private readonly starting = new Map<string, Promise<Upstream>>();
  private readonly logSink: RuntimeLogSink;
  private readonly uids = new Map<string, number>();
  private readonly runRoot: string;
  private readonly prefix = `${process.pid}-${++instances}-`;
  private readonly support: SandboxSupport;
  private readonly cgroups?: CgroupLayout;
  private readonly limits: Limits;
  private readonly network?: Promise<SiteNetwork | undefined>;

  constructor(private readonly o: ProcessRuntimeOptions) {
    // One folder per user: a start as another user (root, then not) never meets the other's
    // folder. Under /tmp, not DATA_DIR: a site's socket path must stay within the 107 bytes a
    // unix socket address holds, which a deep DATA_DIR would pass.
    this.runRoot = o.runRoot ?? path.join(os.tmpdir(), `hostbase-sites-${process.getuid?.() ?? 'user'}`);
    this.limits = { ...DEFAULT_LIMITS, ...o.limits };
    this.logSink = o.logs ?? new MemoryLogs();
    let support = o.support ?? probeSandbox();
    if (support.ok) {
      const cg = detectCgroups();
      if ('layout' in cg) this.cgroups = cg.layout;
      else support = { ok: false, problem: `Dynamic sites are disabled: ${cg.problem}, so a site's memory, processes and CPU cannot be limited. Run Hostbase as root on a host with cgroups (v2, or v1 memory, pids, cpu and cpuacct), or set SITE_RUNTIME=docker.` };
    }
    this.support = support;
    if (!support.ok) o.log.error(`hosting: ${support.problem} Static sites still work.`);
    else {
      // Optional languages: one line each at start, so the operator learns before a tenant does.
      if (!findTool('php')) o.log.info('hosting: PHP sites are off: PHP is not installed (apt-get install php-cli).');
      if (!hasFlask()) o.log.info('hosting: Flask sites are off: Python 3 with Flask is not installed (apt-get install python3-flask).');
    }
    if (support.ok && (o.egress ?? 'internet') === 'internet') {
      this.network = SiteNetwork.setup().then((n) => {
        if (n instanceof SiteNetwork) return n;
        o.log.warn(`hosting: sites get no outbound network: ${n.problem}. Set SITE_EGRESS=none to silence this.`);
        return undefined;
      });
    }
    fs.mkdirSync(this.runRoot, { recursive: true, mode: 0o711 });
    fs.chmodSync(this.runRoot, 0o711);
    void this.sweep();
  }

  refusal(kind: RuntimeKind): string | undefined {
    if (!this.support.ok) return this.support.problem;
    if (kind === 'php' && !findTool('php')) return 'PHP sites need PHP on the host, which is not installed (apt-get install php-cli).';
    if (kind === 'flask' && !hasFlask()) return 'Flask sites need Python 3 with Flask on the host, which is not installed (apt-get install python3-flask).';
    return undefined;
  }

  running(projectId: string) {
    for (const p of this.procs.values()) {
      if (p.spec.projectId === projectId && p.status === 'running') return { deploymentId: p.spec.deploymentId, upstream: { socketPath: p.socketPath } };
    }
    return undefined;
  }

  ensure(spec: SiteSpec): Promise<Upstream> {
    let pending = this.starting.get(spec.deploymentId);
    if (pending) return pending;
    const p = this.procs.get(spec.deploymentId);
    // Its environment changed (on any instance): stop it and start it again with the new one.
    // Requests meanwhile wait for the new process (the starting promise), none is refused.
    if (p && (spec.envVersion ?? 0) > p.envVersion) {
      pending = this.stopProc(p)
        .then(() => this.start(spec))
        .finally(() => this.starting.delete(spec.deploymentId));
      this.starting.set(spec.deploymentId, pending);
      return pending;
    }
    if (p && p.status === 'running') return Promise.resolve({ socketPath: p.socketPath });
    if (p && p.status === 'restarting') return this.waitRestarted(p);
    pending = this.start(spec).finally(() => this.starting.delete(spec.deploymentId));
    this.starting.set(spec.deploymentId, pending);
    return pending;
  }

  projects() {
    return [...this.procs.values()].map((p) => ({ projectId: p.spec.projectId, deploymentId: p.spec.deploymentId, envVersion: p.envVersion }));
  }

  hasProcess(projectId: string): Promise<boolean> {
    return Promise.resolve(this.projects().some((p) => p.projectId === projectId));
  }

  private async uidOf(projectId: string): Promise<number> {
    let uid = this.uids.get(projectId);
    if (uid === undefined) {
      uid = await this.o.siteUid(projectId);
      this.uids.set(projectId, uid);
    }
    return uid;
  }

  private async start(spec: SiteSpec): Promise<Upstream> {
    const refused = this.refusal(spec.kind);
    if (refused) throw new RuntimeStartError(refused, '');
    const uid = await this.uidOf(spec.projectId);
    const env = spec.env ? await spec.env() : { version: spec.envVersion ?? 0, vars: {} };
    const name = this.prefix + spec.deploymentId;
    const dir = path.join(this.runRoot, name);
    // Layout: DIR (root, 0711) / app (the site's copy, its uid, 0500 via a read-only mount),
    // run (its uid, 0700: the relay socket), passwd, group.
    await fsp.rm(dir, { recursive: true, force: true });
    // Explicit modes: the platform's umask (077) would make these unreadable to the site.
    await fsp.mkdir(dir);
    await fsp.chmod(dir, 0o711);
    await spec.prepare?.();
    await fsp.cp(spec.dir, path.join(dir, 'app'), { recursive: true, dereference: false });
    await chownTree(path.join(dir, 'app'), uid);
    await fsp.chmod(path.join(dir, 'app'), 0o700);
    await fsp.mkdir(path.join(dir, 'run'));
    await fsp.chmod(path.join(dir, 'run'), 0o700);
    await fsp.chown(path.join(dir, 'run'), uid, uid);
    const files = passwdFiles(uid);
    for (const [file, text] of [['passwd', files.passwd], ['group', files.group]]) {
      await fsp.writeFile(path.join(dir, file), text);
      await fsp.chmod(path.join(dir, file), 0o644);
    }
    const group = await SiteGroup.create(this.cgroups!, name, this.limits);
    const proc: Proc = {
      spec, name, dir, group, socketPath: path.join(dir, 'run', 'http.sock'),
      status: 'starting', restarts: 0, startedAt: Date.now(), stopping: false, counters: await group.counters(),
      env: env.vars, envVersion: env.version,
    };
    this.procs.set(spec.deploymentId, proc);
    try {
      await this.spawn(proc, uid);
      await this.waitReady(proc);
    } catch (err) {
      await this.stopProc(proc);
      throw err;
    }
    return { socketPath: proc.socketPath };
  }

  private command(spec: SiteSpec): string[] {
    if (spec.command?.length) {
      const [bin, ...rest] = spec.command;
      if (bin !== process.execPath || rest.some((a) => a.startsWith('--max-old-space-size'))) return spec.command;
      return [bin, '--max-old-space-size=256', ...rest];
    }
    switch (spec.kind) {
      case 'node':
        return [process.execPath, '--max-old-space-size=256', spec.entry];
      case 'php':
        return [findTool('php') ?? '/usr/bin/php', '-S', `127.0.0.1:${SITE_PORT}`, '-t', '.'];
      case 'flask':
        // Debian's python3 has python3-flask; the module name is the entry file without .py.
        return ['/usr/bin/python3', '-u', '-m', 'flask', '--app', spec.entry.replace(/\.py$/, ''), 'run', '--host', '127.0.0.1', '--port', String(SITE_PORT), '--no-reload'];
    }
  }

  private async spawn(proc: Proc, uid: number): Promise<void> {
    const network = await this.network;
    if (proc.stopping) return;
    // The owner's variables go in a file only the site's user reads, mounted read-only; the
    // sandbox's first process hands them to the site's command after the privilege drop. Written
    // by root into the root-owned folder (never into run/, which the site controls).
    const envFile = path.join(proc.dir, 'env.json');
    await fsp.rm(envFile, { force: true });
    await fsp.writeFile(envFile, JSON.stringify(proc.env), { flag: 'wx', mode: 0o400 });
    await fsp.chown(envFile, uid, uid);
    const argv = sandboxArgv(this.support, {
      envFile,
      network: !!network,
      uid,
      appDir: path.join(proc.dir, 'app'),
      runDir: path.join(proc.dir, 'run'),
      socketPath: proc.socketPath,
      passwdFile: path.join(proc.dir, 'passwd'),
      groupFile: path.join(proc.dir, 'group'),
      command: this.command(proc.spec),
      env: { PORT: String(SITE_PORT), NODE_ENV: 'production', PATH: SITE_PATH },
      tmpBytes: this.o.tmpBytes ?? 64 * 1024 * 1024,
    });
    const procsFiles = proc.group.procsFiles();
    // The launcher joins the site's control groups, sets the file limit, then becomes bwrap:
    // everything the sandbox starts is inside the limits from its first instruction. umask 022:
    // bwrap makes the sandbox's own folders (/etc, /run) with it, and the platform's 077 would
    // leave them closed to the site's user.
    const launcher = 'n=$1; f=$2; shift 2; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 97; shift; n=$((n-1)); done; ulimit -n "$f" || exit 97; ulimit -c 0; umask 022; exec "$@"';
    const child = spawn('/bin/sh', ['-c', launcher, 'hostbase-launch', String(procsFiles.length), String(this.o.maxOpenFiles ?? 1024), ...procsFiles, ...argv], {
      env: { PATH: SITE_PATH },
      stdio: ['ignore', 'pipe', 'pipe', ...(network ? (['pipe', 'pipe'] as const) : [])],
      // Its own process group: a Ctrl-C at the terminal reaches the platform, which stops sites in order.
      detached: true,
    });
    proc.child = child;
    const append = (chunk: Buffer) => this.appendLog(proc.spec.deploymentId, chunk.toString('utf8'));
    child.stdout!.on('data', append);
    child.stderr!.on('data', append);
    child.on('error', (err) => this.appendLog(proc.spec.deploymentId, `[hostbase] could not start: ${err.message}\n`));
    child.on('exit', (code, signal) => void this.exited(proc, child, uid, code, signal));
    if (network) void network.linkSandbox(child, (problem) => this.appendLog(proc.spec.deploymentId, `[hostbase] the site has no outbound network: ${problem}\n`));
  }

  private async exited(proc: Proc, child: ChildProcess, uid: number, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    if (proc.child !== child) return;
    proc.child = undefined;
    if (proc.timer) clearTimeout(proc.timer);
    if (proc.stopping) return;
    const cause = await this.cause(proc, code, signal);
    proc.lastExit = cause;
    // Back-off doubles per crash (0.5 s .. 30 s) and resets after a minute of healthy running.
    // Process supervision runs on real timers, so it reads real time (not the injected clock).
    if (Date.now() - proc.startedAt > 60_000) proc.restarts = 0;
    // A process that never listened is a failed start (the deploy says so), not a crash.
    if (proc.restarts === 0 && proc.status === 'running') this.o.onCrash?.(proc.spec, cause);
    const delay = Math.min(30_000, 500 * 2 ** proc.restarts++);
    this.appendLog(proc.spec.deploymentId, `[hostbase] ${cause}; restarting in ${delay / 1000} s\n`);
    proc.status = 'restarting';
    proc.timer = setTimeout(() => {
      if (proc.stopping) return;
      proc.startedAt = Date.now();
      void this.spawn(proc, uid).then(() => this.waitReady(proc)).catch(() => undefined);
    }, delay);
    proc.timer.unref();
  }

  /** Why the site stopped, in words for its owner: the limit it hit, or how it exited. */
  private async cause(proc: Proc, code: number | null, signal: NodeJS.Signals | null): Promise<string> {
    const now = await proc.group.counters();
    const before = proc.counters;
    proc.counters = now;
    if (now.oomKills > before.oomKills) return `the site was stopped: it used more than its memory limit of ${Math.round(this.limits.memoryBytes / 1048576)} MiB`;
    const exit = signal ? `was killed (${signal})` : `exited (code ${code})`;
    if (now.forkRefusals > before.forkRefusals) return `the site process ${exit} after reaching its limit of ${this.limits.maxProcesses} processes`;
    if (code === 97) return 'the site could not be placed in its resource limits';
    return `the site process ${exit}`;
  }

  private async waitReady(proc: Proc): Promise<void> {
    // Operational time (a start-up deadline next to real timers), not the injected clock.
    const deadline = Date.now() + (this.o.startTimeoutMs ?? 15_000);
    while (Date.now() < deadline) {
      if (proc.stopping) throw new RuntimeStartError('stopped while starting', '');
      if (!proc.child) break; // exited before listening
      if (await canConnect(proc.socketPath)) {
        proc.status = 'running';
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const log = await this.logs(proc.spec.deploymentId);
    throw new RuntimeStartError(`The ${proc.spec.kind} site did not start listening on its PORT`, log.slice(-4000));
  }

  /** A crashed process comes back after its back-off; callers wait rather than start a second one. */
  private async waitRestarted(proc: Proc): Promise<Upstream> {
    const deadline = Date.now() + 35_000; // operational: waits on real timers
    while (Date.now() < deadline && !proc.stopping) {
      if (proc.status === 'running') return { socketPath: proc.socketPath };
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
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    await proc.group.remove();
    await fsp.rm(proc.dir, { recursive: true, force: true });
  }

  async stats(projectId: string): Promise<RuntimeStats | undefined> {
    const proc = [...this.procs.values()].find((p) => p.spec.projectId === projectId && p.status === 'running') ??
      [...this.procs.values()].find((p) => p.spec.projectId === projectId);
    if (!proc) return undefined;
    const base = { status: proc.status, restarts: proc.restarts, lastExit: proc.lastExit };
    try {
      const u = await proc.group.usage();
      return { ...base, cpuPercent: u.cpuPercent, memPercent: u.memPercent };
    } catch {
      return { ...base, cpuPercent: 0, memPercent: 0 };
    }
  }

  logs(deploymentId: string): Promise<string> {
    return this.logSink.read(deploymentId);
  }

  private appendLog(deploymentId: string, text: string): void {
    this.logSink.append(deploymentId, text);
  }

  /** Stops every site; the runtime can start sites again afterwards (a runner that lost its lease). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.procs.values()].map((p) => this.stopProc(p)));
  }

  async close(): Promise<void> {
    await this.stopAll();
    await this.logSink.close();
  }

  /**
   * Leftovers of a platform process that died without stopping its sites (kill -9, power loss):
   * their pid namespaces died with them (--die-with-parent), but folders and control groups stay.
   * A name starts with the pid of the process that made it; a dead pid means nobody owns it.
   */
  private async sweep(): Promise<void> {
    const dead = (name: string) => {
      const pid = Number(name.split('-')[0]);
      if (!Number.isInteger(pid) || pid <= 0) return false;
      try {
        process.kill(pid, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
    };
    let swept = 0;
    if (this.cgroups) {
      for (const name of SiteGroup.list(this.cgroups).filter(dead)) {
        await SiteGroup.forName(this.cgroups, name, this.limits).remove();
        swept++;
      }
    }
    for (const name of (await fsp.readdir(this.runRoot).catch(() => [] as string[])).filter(dead)) {
      await fsp.rm(path.join(this.runRoot, name), { recursive: true, force: true });
      swept++;
    }
    if (swept) this.o.log.warn({ swept }, 'hosting: removed site folders and control groups left by a platform process that was killed');
  }
}

let flask: boolean | undefined;
function hasFlask(): boolean {
  if (flask === undefined) {
    // The sandbox runs the host's /usr/bin/python3 (Debian's python3-flask), never a user's pyenv.
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import flask'], { stdio: 'ignore', timeout: 10_000 });
      flask = true;
    } catch {
      flask = false;
    }
  }
  return flask;
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

async function chownTree(dir: string, uid: number): Promise<void> {
  await fsp.lchown(dir, uid, uid);
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(full, uid);
    else await fsp.lchown(full, uid, uid);
  }
}

function canConnect(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ path: socketPath });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
