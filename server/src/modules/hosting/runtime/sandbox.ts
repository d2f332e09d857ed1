// The sandbox a hosted site's code runs in, built on bubblewrap (Debian's `bubblewrap`, the
// sandbox of Flatpak) as root, plus control groups (cgroups.ts):
//  - identity: the project's own uid/gid (site-identities.ts), no supplementary groups, no
//    capabilities, no_new_privs (setpriv, util-linux), so setuid binaries cannot raise it;
//  - files: a new mount namespace holding the host's /usr (read-only), a few files of /etc a
//    runtime needs (certificates, resolver, alternatives), the deployment read-only at /app,
//    a private /tmp of bounded size, its own /proc (pid namespace: only its own processes) and a
//    minimal /dev. No DATA_DIR, no other site, no /root, no /home;
//  - network: a network namespace of its own; the gateway reaches the site through a unix socket
//    relayed by site-init.cjs (the only way in), and its way out is either nothing but its own
//    loopback or a filtered link to the public internet (site-network.ts);
//  - life: --die-with-parent and the pid namespace end the whole site when the platform dies.
// A build (builds/) runs in the same sandbox with two differences: its source folder is mounted
// read-write at /app and its project's download cache at /cache, and its command runs directly
// after the identity drop (no relay: a build serves nothing); its environment reaches bwrap
// through a pipe (--args), never through a host process's argv.
// When any of this cannot be set up, probe() says why and the runtime refuses dynamic sites:
// tenant code never runs outside the sandbox.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const SITE_PORT = 8080;
export const SITE_PATH = '/usr/local/bin:/usr/bin:/bin';
/** Where the deployment, the relay socket and the init script appear inside the sandbox. */
const APP = '/app';
const RUN = '/run/hostbase';
const ENV_FILE = `${RUN}-env.json`;

/** Files of /etc a runtime may need; nothing that names the host's users, services or secrets. */
const ETC_FILES = [
  '/etc/ssl', '/etc/ca-certificates', '/etc/resolv.conf', '/etc/hosts', '/etc/nsswitch.conf', '/etc/host.conf',
  '/etc/gai.conf', '/etc/localtime', '/etc/alternatives', '/etc/mime.types', '/etc/php', '/etc/python3', '/etc/ld.so.cache',
  '/etc/ld.so.conf', '/etc/ld.so.conf.d',
];

/** ETC_FILES that exist, plus versioned runtime folders (/etc/python3.11, /etc/php8.2). */
function etcFiles(): string[] {
  let versioned: string[] = [];
  try {
    versioned = fs.readdirSync('/etc').filter((n) => /^(python3\.\d+|php\d)/.test(n)).map((n) => `/etc/${n}`);
  } catch {
    /* no /etc */
  }
  return [...ETC_FILES.filter((p) => fs.existsSync(p)), ...versioned];
}

export interface SandboxSupport {
  ok: boolean;
  /** Why dynamic sites cannot run here, and how to enable them. */
  problem?: string;
  bwrap?: string;
  setpriv?: string;
}

export function findTool(name: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin']) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

/** The path of site-init.cjs, from the sources or from dist/. */
export function initScriptPath(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'server', 'sandbox', 'site-init.cjs');
    if (fs.existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('server/sandbox/site-init.cjs not found');
}

const HOW = 'Run Hostbase as root on Linux with bubblewrap and util-linux installed (apt-get install bubblewrap util-linux), or set SITE_RUNTIME=docker.';

let probed: SandboxSupport | undefined;

/** Checks, once per process, that a sandbox can really be made here: tools, privileges, namespaces. */
export function probeSandbox(): SandboxSupport {
  probed ??= probe();
  return probed;
}

function probe(): SandboxSupport {
  if (process.platform !== 'linux') return { ok: false, problem: `Dynamic sites need Linux namespaces; this host is ${process.platform}. ${HOW}` };
  if (process.getuid?.() !== 0) return { ok: false, problem: `Dynamic sites need the platform to run as root to give each site its own identity and limits. ${HOW}` };
  const bwrap = findTool('bwrap');
  if (!bwrap) return { ok: false, problem: `Dynamic sites need bubblewrap, which is not installed. ${HOW}` };
  const setpriv = findTool('setpriv');
  if (!setpriv) return { ok: false, problem: `Dynamic sites need setpriv (util-linux), which is not installed. ${HOW}` };
  try {
    execFileSync(bwrap, [...baseArgs(), '--', setpriv, '--reuid', '65534', '--regid', '65534', '--clear-groups', '--no-new-privs', '--', '/usr/bin/true'], { stdio: 'pipe', timeout: 10_000 });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
    return { ok: false, problem: `Dynamic sites are disabled: bubblewrap cannot create namespaces here (${stderr || (err as Error).message}). ${HOW}` };
  }
  return { ok: true, bwrap, setpriv };
}

/** Namespaces and the read-only system: what every sandbox has. */
function baseArgs(): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--hostname', 'site'];
  args.push('--ro-bind', '/usr', '/usr');
  // Merged-/usr hosts have these as symlinks; older ones as folders.
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(top);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(top), top);
    else if (st.isDirectory()) args.push('--ro-bind', top, top);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  return args;
}

export interface SandboxCommand {
  uid: number;
  /** The deployment's working copy (owned by uid), mounted read-only at /app. */
  appDir: string;
  /** A folder owned by uid, shared with the platform: the relay's socket is made in it. */
  runDir: string;
  /** The file the relay listens on, as the platform sees it (inside runDir). */
  socketPath: string;
  /** passwd and group files naming only the site's user (passwdFiles()). */
  passwdFile: string;
  groupFile: string;
  /** The site's command, as it runs inside (paths inside the sandbox). */
  command: string[];
  /** The platform's variables (PORT, NODE_ENV, PATH): set by bwrap for every process inside. */
  env: Record<string, string>;
  /**
   * The owner's variables (site-env.ts) as a JSON object, readable by uid only: mounted read-only
   * and given by site-init.cjs to the site's command alone, after the privilege drop.
   */
  envFile?: string;
  tmpBytes: number;
  /**
   * Egress: bwrap writes {"child-pid": N} to fd 3 once the namespaces exist and waits for a byte
   * on fd 4 before it runs anything, so the link is up before the site's first instruction.
   */
  network?: boolean;
}

/** What a site's and a build's sandboxes share: /etc, their own user, node, a bounded /tmp. */
interface CommonMounts {
  passwdFile: string;
  groupFile: string;
  tmpBytes: number;
  network?: boolean;
}

function commonArgs(support: SandboxSupport, c: CommonMounts): { args: string[]; parents: (target: string) => void } {
  const args = [support.bwrap!, ...baseArgs()];
  if (c.network) args.push('--info-fd', '3', '--block-fd', '4');
  // bwrap makes missing parent folders 0700 (root's): open them to the site's user explicitly.
  const made = new Set<string>();
  const parents = (target: string) => {
    const chain: string[] = [];
    for (let d = path.dirname(target); d !== '/' && !made.has(d); d = path.dirname(d)) chain.unshift(d);
    for (const d of chain) {
      made.add(d);
      args.push('--perms', '0755', '--dir', d);
    }
  };
  parents('/etc/x');
  for (const p of etcFiles()) args.push('--ro-bind', p, p);
  // A passwd and group naming only the site's user, for runtimes that look themselves up.
  args.push('--ro-bind', c.passwdFile, '/etc/passwd', '--ro-bind', c.groupFile, '/etc/group');
  // Node lives outside /usr on some hosts (nvm, tarballs): its folder, read-only.
  const nodePrefix = path.dirname(path.dirname(process.execPath));
  if (!process.execPath.startsWith('/usr/')) {
    parents(nodePrefix);
    args.push('--ro-bind', nodePrefix, nodePrefix);
  }
  args.push('--size', String(c.tmpBytes), '--perms', '1777', '--tmpfs', '/tmp');
  return { args, parents };
}

function dropTo(support: SandboxSupport, uid: number): string[] {
  return [support.setpriv!, '--reuid', String(uid), '--regid', String(uid), '--clear-groups', '--no-new-privs', '--inh-caps=-all', '--bounding-set=-all'];
}

/** bwrap's argument list for one site. */
export function sandboxArgv(support: SandboxSupport, c: SandboxCommand): string[] {
  const { args, parents } = commonArgs(support, c);
  parents(`${RUN}/x`);
  args.push('--ro-bind', c.appDir, APP, '--bind', c.runDir, RUN, '--ro-bind', initScriptPath(), `${RUN}-init.cjs`);
  if (c.envFile) args.push('--ro-bind', c.envFile, ENV_FILE);
  args.push('--chdir', APP, '--clearenv');
  for (const [k, v] of Object.entries(c.env)) args.push('--setenv', k, v);
  if (c.envFile) args.push('--setenv', 'HOSTBASE_ENV_FILE', ENV_FILE);
  args.push(
    '--', ...dropTo(support, c.uid),
    '--', process.execPath, '--max-old-space-size=24', '--max-semi-space-size=1', `${RUN}-init.cjs`, `${RUN}/${path.basename(c.socketPath)}`, String(SITE_PORT), '--', ...c.command,
  );
  return args;
}

/** Where a build's dependency and download cache appears inside its sandbox. */
export const BUILD_CACHE = '/cache';

export interface BuildSandboxCommand extends CommonMounts {
  uid: number;
  /** The source being built (owned by uid): mounted read-write at /app. */
  workspace: string;
  /** The project's download cache (npm, pip, composer; owned by uid): read-write at /cache. */
  cacheDir: string;
  /** Run directly after the identity drop (no relay: a build serves nothing). */
  command: string[];
  /**
   * The file descriptor bwrap reads the environment from (--args FD, NUL-separated --setenv
   * triples): the site's variables given to a build never appear in a host process's argv.
   */
  envFd: number;
}

/** bwrap's argument list for one build: same namespaces and identity drop, a writable /app. */
export function buildSandboxArgv(support: SandboxSupport, c: BuildSandboxCommand): string[] {
  const { args } = commonArgs(support, c);
  args.push('--bind', c.workspace, APP, '--bind', c.cacheDir, BUILD_CACHE);
  args.push('--chdir', APP, '--clearenv', '--args', String(c.envFd));
  args.push('--', ...dropTo(support, c.uid), '--', ...c.command);
  return args;
}

/** The NUL-separated --setenv arguments for buildSandboxArgv's envFd. */
export function envArgs(env: Record<string, string>): Buffer {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    // NUL cannot travel in an environment variable; such a name or value is dropped, never split.
    if (k.includes('\0') || v.includes('\0') || k.includes('=') || k === '') continue;
    parts.push('--setenv', k, v);
  }
  return Buffer.from(parts.map((p) => `${p}\0`).join(''));
}

export function passwdFiles(uid: number): { passwd: string; group: string } {
  return { passwd: `site:x:${uid}:${uid}:hosted site:/tmp:/usr/sbin/nologin\n`, group: `site:x:${uid}:\n` };
}
