// Resource limits for one site: a control group per deployment with a memory ceiling (resident
// memory, which is what hurts the host; RLIMIT_AS would starve V8, which reserves address space
// up front), a process ceiling (fork bombs) and a CPU quota. Works on cgroup v2 (production hosts)
// and on v1 (this machine's kernel mounts memory, pids, cpu and cpuacct as v1 hierarchies).
// The group also gives honest stats (usage against the site's own limit) and the reason a site
// died (the kernel counts OOM kills and refused forks).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export interface Limits {
  memoryBytes: number;
  maxProcesses: number;
  /** Share of one core, 1 = a whole core. */
  cpus: number;
}

export interface GroupCounters {
  oomKills: number;
  forkRefusals: number;
}

const ROOT = '/sys/fs/cgroup';
const PERIOD_US = 100_000;

type Layout = { version: 2; dir: string } | { version: 1; dirs: Record<'memory' | 'pids' | 'cpu' | 'cpuacct', string> };

/** Where our groups live, or why there can be none. Decided once per process. */
export function detectCgroups(parent = 'hostbase'): { layout: Layout } | { problem: string } {
  try {
    if (fs.existsSync(path.join(ROOT, 'cgroup.controllers'))) {
      const controllers = fs.readFileSync(path.join(ROOT, 'cgroup.controllers'), 'utf8').split(/\s+/);
      for (const c of ['memory', 'pids', 'cpu']) if (!controllers.includes(c)) return { problem: `the cgroup v2 controller "${c}" is not available` };
      const dir = path.join(ROOT, parent);
      fs.mkdirSync(dir, { recursive: true });
      // Children of our parent group get the three controllers.
      fs.writeFileSync(path.join(ROOT, 'cgroup.subtree_control'), '+memory +pids +cpu');
      fs.writeFileSync(path.join(dir, 'cgroup.subtree_control'), '+memory +pids +cpu');
      return { layout: { version: 2, dir } };
    }
    const dirs = {} as Record<'memory' | 'pids' | 'cpu' | 'cpuacct', string>;
    for (const c of ['memory', 'pids', 'cpu', 'cpuacct'] as const) {
      const mount = path.join(ROOT, c);
      if (!fs.existsSync(path.join(mount, 'cgroup.procs'))) return { problem: `the cgroup v1 controller "${c}" is not mounted at ${mount}` };
      dirs[c] = path.join(mount, parent);
      fs.mkdirSync(dirs[c], { recursive: true });
    }
    // Probe that we may set a limit at all (read-only /sys in a container, no root).
    fs.writeFileSync(path.join(dirs.pids, 'pids.max'), 'max');
    return { layout: { version: 1, dirs } };
  } catch (err) {
    return { problem: `control groups cannot be managed here (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

export class SiteGroup {
  private lastCpu?: { usageNs: number; at: number };

  private constructor(
    private readonly layout: Layout,
    readonly name: string,
    readonly limits: Limits,
  ) {}

  static async create(layout: Layout, name: string, limits: Limits): Promise<SiteGroup> {
    const g = new SiteGroup(layout, name, limits);
    await g.remove(); // a leftover of the same name (a crash) would carry old counters
    const quota = Math.max(1000, Math.round(limits.cpus * PERIOD_US));
    if (layout.version === 2) {
      const dir = g.dirs()[0];
      await fsp.mkdir(dir);
      await fsp.writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes));
      await fsp.writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => undefined);
      await fsp.writeFile(path.join(dir, 'pids.max'), String(limits.maxProcesses));
      await fsp.writeFile(path.join(dir, 'cpu.max'), `${quota} ${PERIOD_US}`);
    } else {
      for (const dir of g.dirs()) await fsp.mkdir(dir);
      const d = layout.dirs;
      await fsp.writeFile(path.join(d.memory, name, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // Without swap accounting the file is absent; the memory limit alone still holds RSS.
      await fsp.writeFile(path.join(d.memory, name, 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes)).catch(() => undefined);
      await fsp.writeFile(path.join(d.pids, name, 'pids.max'), String(limits.maxProcesses));
      await fsp.writeFile(path.join(d.cpu, name, 'cpu.cfs_period_us'), String(PERIOD_US));
      await fsp.writeFile(path.join(d.cpu, name, 'cpu.cfs_quota_us'), String(quota));
    }
    return g;
  }

  /** The cgroup.procs files a launcher writes its own pid to before it execs the site. */
  procsFiles(): string[] {
    return this.dirs().map((d) => path.join(d, 'cgroup.procs'));
  }

  private dirs(): string[] {
    if (this.layout.version === 2) return [path.join(this.layout.dir, this.name)];
    return Object.values(this.layout.dirs).map((d) => path.join(d, this.name));
  }

  async counters(): Promise<GroupCounters> {
    const read = (file: string) => fsp.readFile(file, 'utf8').catch(() => '');
    const field = (text: string, key: string) => Number(new RegExp(`^${key} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    if (this.layout.version === 2) {
      const dir = this.dirs()[0];
      return { oomKills: field(await read(path.join(dir, 'memory.events')), 'oom_kill'), forkRefusals: field(await read(path.join(dir, 'pids.events')), 'max') };
    }
    const d = this.layout.dirs;
    return {
      oomKills: field(await read(path.join(d.memory, this.name, 'memory.oom_control')), 'oom_kill'),
      forkRefusals: field(await read(path.join(d.pids, this.name, 'pids.events')), 'max'),
    };
  }

  /** Memory against the site's own limit, and CPU in percent of one core since the last sample. */
  async usage(): Promise<{ memPercent: number; cpuPercent: number; memoryBytes: number }> {
    let memoryBytes: number;
    let usageNs: number;
    if (this.layout.version === 2) {
      const dir = this.dirs()[0];
      memoryBytes = Number(await fsp.readFile(path.join(dir, 'memory.current'), 'utf8'));
      const stat = await fsp.readFile(path.join(dir, 'cpu.stat'), 'utf8');
      usageNs = Number(/^usage_usec (\d+)/m.exec(stat)?.[1] ?? 0) * 1000;
    } else {
      const d = this.layout.dirs;
      memoryBytes = Number(await fsp.readFile(path.join(d.memory, this.name, 'memory.usage_in_bytes'), 'utf8'));
      usageNs = Number(await fsp.readFile(path.join(d.cpuacct, this.name, 'cpuacct.usage'), 'utf8'));
    }
    // Wall time between two CPU samples (operational), not the injected business clock.
    const now = Date.now();
    const prev = this.lastCpu;
    this.lastCpu = { usageNs, at: now };
    const cpuPercent = prev && now > prev.at ? ((usageNs - prev.usageNs) / 1e6 / (now - prev.at)) * 100 : 0;
    const memPercent = (memoryBytes / this.limits.memoryBytes) * 100;
    return { memPercent: round(memPercent), cpuPercent: round(Math.max(0, cpuPercent)), memoryBytes };
  }

  /** Kills whatever is still in the group (the sandbox's pid namespace normally took it down). */
  async killAll(): Promise<void> {
    for (const file of this.procsFiles()) {
      const pids = (await fsp.readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  }

  async remove(): Promise<void> {
    for (const dir of this.dirs()) {
      if (!fs.existsSync(dir)) continue;
      // rmdir fails while a (dying) process is still inside: retry briefly.
      for (let i = 0; i < 50; i++) {
        try {
          await fsp.rmdir(dir);
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') break;
          await this.killAll();
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    }
  }

  /** Groups under our parent, by name (for the sweep of an earlier crash's leftovers). */
  static list(layout: Layout): string[] {
    const dir = layout.version === 2 ? layout.dir : layout.dirs.memory;
    try {
      return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch {
      return [];
    }
  }

  static forName(layout: Layout, name: string, limits: Limits): SiteGroup {
    return new SiteGroup(layout, name, limits);
  }
}

export type CgroupLayout = Layout;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
