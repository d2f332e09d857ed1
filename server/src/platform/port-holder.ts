// Which process listens on a TCP port, for the "port in use" message at start. Linux only, and
// only what this user may see: /proc/net/tcp{,6} gives the listening socket's inode, and the
// process whose /proc/<pid>/fd holds that socket is the holder. Anything else: undefined.
import fs from 'node:fs';

/** TCP state 0A is LISTEN (include/net/tcp_states.h). */
const LISTEN = '0A';

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is HOST:PORT in hex; st is the 4th column; inode the 10th.
      if (cols.length > 9 && cols[1]?.endsWith(`:${hexPort}`) && cols[3] === LISTEN) inodes.add(cols[9]!);
    }
  }
  return inodes;
}

/** "pid 1234 (python3)" for the process listening on `port`, when it can be found. */
export function portHolder(port: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`));
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process: not ours to see
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (!wanted.has(target)) continue;
      let name = '';
      try {
        name = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      } catch {
        // gone meanwhile: the pid alone
      }
      return name ? `pid ${pid} (${name})` : `pid ${pid}`;
    }
  }
  return undefined;
}
