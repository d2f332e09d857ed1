// Runs one build command in the sandbox (sandbox.ts buildSandboxArgv: the project's own uid, its
// workspace read-write at /app, its download cache at /cache) inside a control group of its own
// (build-<id>), streaming its output as it comes. Limits end the whole sandbox with a message the
// developer reads: time (a timer), memory (the group's ceiling; the kernel's OOM kill is read from
// the group's counters), disk (the workspace and cache, measured every second and once at the
// end; /tmp is a bounded tmpfs). Nothing outlives a failure: the group is emptied with SIGKILL and
// removed, and --die-with-parent ends the sandbox with the platform.
import { execFile, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import { SiteGroup, type CgroupLayout, buildSandboxArgv, envArgs, type SandboxSupport, type SiteNetwork } from '../runtime';

const run = promisify(execFile);
const MiB = 1024 * 1024;

export interface BuildLimits {
  timeoutMs: number;
  memoryBytes: number;
  diskBytes: number;
}

/** A build did not succeed; the message is what the developer reads. */
export class BuildFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildFailedError';
  }
}

export interface RunCommand {
  support: SandboxSupport;
  cgroups: CgroupLayout;
  /** The filtered way out (site-network.ts); none: the build has only its loopback. */
  network?: SiteNetwork;
  /** Group name, unique on this host: build-<deploymentId>. */
  name: string;
  uid: number;
  workspace: string;
  cacheDir: string;
  passwdFile: string;
  groupFile: string;
  /** A shell command line, run by /bin/sh -c in /app. */
  command: string;
  env: Record<string, string>;
  limits: BuildLimits;
  /** When the whole build's time is up (ms since the epoch; default: timeoutMs from now). */
  deadline?: number;
  /** Counted against the memory limit too (tmpfs pages are memory). */
  tmpBytes: number;
  maxProcesses: number;
  cpus: number;
  onOutput: (text: string) => void;
  signal?: AbortSignal;
}

/** The size of the folders on disk (du: allocated blocks, hard links counted once). */
export async function diskUsage(dirs: string[]): Promise<number> {
  try {
    const { stdout } = await run('du', ['-s', '-x', '-B1', '-c', ...dirs], { maxBuffer: 1 << 20 });
    return Number(/^(\d+)\s+total$/m.exec(stdout)?.[1] ?? 0);
  } catch (err) {
    // du reports files that vanished while it walked (npm moves folders around) but still totals.
    const out = String((err as { stdout?: string }).stdout ?? '');
    return Number(/^(\d+)\s+total$/m.exec(out)?.[1] ?? 0);
  }
}

export async function runBuildCommand(c: RunCommand): Promise<void> {
  const group = await SiteGroup.create(c.cgroups, c.name, { memoryBytes: c.limits.memoryBytes, maxProcesses: c.maxProcesses, cpus: c.cpus });
  const before = await group.counters();
  let stopped: string | undefined;
  const argv = buildSandboxArgv(c.support, {
    uid: c.uid, workspace: c.workspace, cacheDir: c.cacheDir, passwdFile: c.passwdFile, groupFile: c.groupFile,
    tmpBytes: c.tmpBytes, network: !!c.network, envFd: 5, command: ['/bin/sh', '-c', c.command],
  });
  const procsFiles = group.procsFiles();
  // As the runtime's launcher: join the group, cap open files, no core dumps, then become bwrap.
  const launcher = 'n=$1; f=$2; shift 2; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 97; shift; n=$((n-1)); done; ulimit -n "$f" || exit 97; ulimit -c 0; umask 022; exec "$@"';
  const child = spawn('/bin/sh', ['-c', launcher, 'hostbase-build', String(procsFiles.length), '4096', ...procsFiles, ...argv], {
    env: { PATH: '/usr/bin:/bin' },
    stdio: ['ignore', 'pipe', 'pipe', c.network ? 'pipe' : 'ignore', c.network ? 'pipe' : 'ignore', 'pipe'],
    detached: true,
  });
  const envPipe = (child.stdio as unknown as NodeJS.WritableStream[])[5];
  envPipe.on('error', () => undefined);
  envPipe.end(envArgs(c.env));
  for (const stream of [child.stdout!, child.stderr!]) {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => c.onOutput(decoder.write(chunk)));
    stream.on('end', () => {
      const rest = decoder.end();
      if (rest) c.onOutput(rest);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: 127, signal: null }));
  });
  let done = false;
  const stop = async (why: string) => {
    if (done || stopped) return;
    stopped = why;
    await killAll(group, child.pid);
  };
  if (c.network) void c.network.linkSandbox(child, (problem) => c.onOutput(`[hostbase] the build has no outbound network: ${problem}\n`));
  const timer = setTimeout(() => void stop(`The build was stopped: it ran longer than its limit of ${Math.round(c.limits.timeoutMs / 1000)} s.`), Math.max(0, (c.deadline ?? Date.now() + c.limits.timeoutMs) - Date.now()));
  const onAbort = () => void stop('The build was cancelled.');
  c.signal?.addEventListener('abort', onAbort);
  if (c.signal?.aborted) onAbort();
  const diskMessage = `The build was stopped: it wrote more than its disk limit of ${Math.round(c.limits.diskBytes / MiB)} MiB.`;
  let wake = () => undefined as void;
  const watch = (async () => {
    while (!done && !stopped) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, 1000);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      if (done || stopped) break;
      if ((await diskUsage([c.workspace, c.cacheDir])) > c.limits.diskBytes) await stop(diskMessage);
    }
  })();
  try {
    const { code, signal } = await exited;
    done = true;
    wake();
    // Whatever a build left behind in its group (a daemon it started) goes with it.
    await killAll(group, child.pid);
    await watch;
    if (stopped) throw new BuildFailedError(stopped);
    const now = await group.counters();
    if (now.oomKills > before.oomKills) throw new BuildFailedError(`The build was stopped: it used more than its memory limit of ${Math.round(c.limits.memoryBytes / MiB)} MiB.`);
    if ((await diskUsage([c.workspace, c.cacheDir])) > c.limits.diskBytes) throw new BuildFailedError(diskMessage);
    if (code === 97) throw new BuildFailedError('The build could not be placed in its resource limits.');
    if (code !== 0) {
      const limit = now.forkRefusals > before.forkRefusals ? ` after reaching its limit of ${c.maxProcesses} processes` : '';
      throw new BuildFailedError(`The build command ${signal ? `was killed (${signal})` : `exited with code ${code}`}${limit}: ${c.command}`);
    }
  } finally {
    done = true;
    clearTimeout(timer);
    c.signal?.removeEventListener('abort', onAbort);
    await group.remove();
  }
}

/** SIGKILL to every process of the group (the sandbox and all it started) and to the launcher. */
async function killAll(group: SiteGroup, pid: number | undefined): Promise<void> {
  if (pid) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  await group.killAll();
}
