// CPU and memory of a process from /proc, as `top` and `docker stats` compute them: CPU is the
// process's user+system time over the wall time since the previous sample, in percent of one
// core (so up to 100 x cores); memory is resident set size as a percentage of MemTotal.
import fsp from 'node:fs/promises';

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLK_TCK = 100;

interface Sample {
  ticks: number;
  at: number;
}

export async function cpuTicks(pid: number): Promise<number> {
  const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name may contain spaces and parentheses: fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

export async function rssBytes(pid: number): Promise<number> {
  const status = await fsp.readFile(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

let memTotal: number | undefined;
export async function memTotalBytes(): Promise<number> {
  if (memTotal === undefined) {
    const info = await fsp.readFile('/proc/meminfo', 'utf8');
    memTotal = Number(/^MemTotal:\s+(\d+)\s+kB/m.exec(info)?.[1] ?? 0) * 1024;
  }
  return memTotal;
}

export class ProcSampler {
  private readonly last = new Map<number, Sample>();

  /** The first sample of a pid measures over a short window so the first answer is real too. */
  async sample(pid: number, firstWindowMs = 250): Promise<{ cpuPercent: number; memPercent: number }> {
    let prev = this.last.get(pid);
    if (!prev) {
      prev = { ticks: await cpuTicks(pid), at: performance.now() };
      await new Promise((r) => setTimeout(r, firstWindowMs));
    }
    const now = { ticks: await cpuTicks(pid), at: performance.now() };
    this.last.set(pid, now);
    const seconds = Math.max(0.001, (now.at - prev.at) / 1000);
    const cpuPercent = ((now.ticks - prev.ticks) / CLK_TCK / seconds) * 100;
    const memPercent = (100 * (await rssBytes(pid))) / Math.max(1, await memTotalBytes());
    return { cpuPercent: round2(Math.max(0, cpuPercent)), memPercent: round2(memPercent) };
  }

  forget(pid: number): void {
    this.last.delete(pid);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
