// The build engine: turns an extracted source folder into something deployable, inside the
// sandbox (build-runner.ts), following a plan from detect.ts. Dependencies come from the project's
// cache when the lockfile is unchanged (build-cache.ts); the output is a folder of files to serve,
// or the workspace plus the argv that starts it. Start commands are resolved here, at build time,
// to what the runtime runs without npm (node + the real JS file of a package's bin) and without
// symbolic links or executable bits, which a deployment's archive does not keep.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { detectCgroups, type CgroupLayout, BUILD_CACHE, findTool, passwdFiles, probeSandbox, SITE_PATH, type SandboxSupport, SiteNetwork } from '../runtime';
import { runtimeLayout, ZipRefusedError } from '../deploy';
import { BuildCache } from './build-cache';
import { BuildFailedError, diskUsage, runBuildCommand, type BuildLimits } from './build-runner';
import type { BuildPlan } from './detect';
import { regularFiles } from './output-archive';
import { folderIn, staticOutput } from './output-folder';
import { flaskCommand, startCommand, venvSitePackages } from './start-command';

export { BuildFailedError, type BuildLimits } from './build-runner';
export { dropLinks } from './output-folder';
export { flaskCommand, startCommand } from './start-command';

const run = promisify(execFile);

export type BuildOutcome =
  | { kind: 'static'; dir: string }
  | { kind: 'node' | 'php' | 'flask'; dir: string; entry: string; command?: string[] };

export interface BuilderOptions {
  /** Per-project caches (dependencies, downloads) live under it; root's, never inside a sandbox but for /cache. */
  cacheRoot: string;
  uidOf: (projectId: string) => Promise<number>;
  limits: BuildLimits;
  /** true: builds reach the internet through the filtered link (site-network.ts); a handle to share one. */
  egress: boolean | SiteNetwork;
  /** A Python package index builds may use; without it pip installs with --no-index (local wheels and paths). */
  pipIndexUrl?: string;
  log: FastifyBaseLogger;
  /** Private /tmp of a build (tmpfs, counted against its memory). */
  tmpBytes?: number;
  maxProcesses?: number;
  cpus?: number;
  /** Tests: pretend the host cannot sandbox. */
  support?: SandboxSupport;
}

export interface BuildArgs {
  projectId: string;
  deploymentId: string;
  /** The extracted upload (root's); the plan's root folder in it is built in place. */
  workspace: string;
  plan: BuildPlan;
  /** The site's variables, given to the build. */
  env: Record<string, string>;
  onLog: (text: string) => void;
  signal?: AbortSignal;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class Builder {
  private readonly support: SandboxSupport;
  private readonly cgroups?: CgroupLayout;
  private readonly problem?: string;
  private readonly network: Promise<SiteNetwork | { problem: string }>;

  constructor(private readonly o: BuilderOptions) {
    this.support = o.support ?? probeSandbox();
    let problem = this.support.ok ? undefined : `Builds are disabled: ${this.support.problem}`;
    if (!problem) {
      const cg = detectCgroups();
      if ('layout' in cg) this.cgroups = cg.layout;
      else problem = `Builds are disabled: ${cg.problem}, so a build's memory and processes cannot be limited.`;
    }
    this.problem = problem;
    if (o.egress instanceof SiteNetwork) this.network = Promise.resolve(o.egress);
    else if (o.egress && !problem) this.network = SiteNetwork.setup();
    else this.network = Promise.resolve({ problem: 'outbound network is turned off for sites and builds (SITE_EGRESS=none)' });
    fs.mkdirSync(o.cacheRoot, { recursive: true, mode: 0o711 });
  }

  /** Why builds (of this plan) cannot run here; the deploy is refused with it. */
  refusal(plan?: BuildPlan): string | undefined {
    if (this.problem) return this.problem;
    const cmds = [plan?.install?.command, plan?.build].filter((c): c is string => !!c);
    if ((!plan || cmds.some((c) => /\bnpm\b/.test(c))) && !findTool('npm')) return 'Builds need npm on the host, which is not installed (apt-get install npm).';
    if (plan && cmds.some((c) => /\bcomposer\b/.test(c)) && !findTool('composer')) return 'PHP builds need Composer on the host, which is not installed (apt-get install composer).';
    if (plan?.output.kind === 'flask' && !fs.existsSync('/usr/bin/python3')) return 'Flask builds need Python 3 on the host (apt-get install python3-venv python3-flask).';
    return undefined;
  }

  async build(a: BuildArgs): Promise<BuildOutcome> {
    const refused = this.refusal(a.plan);
    if (refused) throw new BuildFailedError(refused);
    if (!SAFE_ID.test(a.projectId) || !SAFE_ID.test(a.deploymentId)) throw new Error('unexpected project or deployment id');
    const { plan } = a;
    const started = Date.now(); // operational: the build's time limit runs on real timers
    const log = (line: string) => a.onLog(`${line}\n`);
    log(`Detected ${plan.framework} (${plan.reason})`);
    const uid = await this.o.uidOf(a.projectId);
    const src = await folderIn(a.workspace, plan.root, 'root directory');
    const { downloads, deps, passwd, group } = await this.projectDirs(a.projectId, uid);
    // The build writes its source folder as the project's user (its own files, nobody else's).
    await run('chown', ['-R', '-P', `${uid}:${uid}`, src]);
    await fsp.chmod(src, 0o700);
    await this.trimDownloads(downloads, uid);

    const network = await this.network;
    const net = network instanceof SiteNetwork ? network : undefined;
    if (!net) log(`The build has no outbound network (${(network as { problem: string }).problem}): dependencies must come from the cache or the upload.`);
    const env = this.environment(a.env);
    const step = (command: string) =>
      runBuildCommand({
        support: this.support, cgroups: this.cgroups!, network: net, name: buildGroupName(a.deploymentId), uid, workspace: src, cacheDir: downloads,
        passwdFile: passwd, groupFile: group, command, env, limits: this.o.limits, deadline: started + this.o.limits.timeoutMs,
        tmpBytes: this.o.tmpBytes ?? 512 * 1024 * 1024, maxProcesses: this.o.maxProcesses ?? 512, cpus: this.o.cpus ?? 1, onOutput: a.onLog, signal: a.signal,
      });

    if (plan.install) {
      const cache = new BuildCache(deps);
      const key = await BuildCache.keyOf(src, plan);
      if (key && (await cache.restore(key, src, plan.install.cacheDir))) {
        log('Dependencies restored from the cache (lockfile unchanged); install skipped');
      } else {
        log(`Installing dependencies: ${plan.install.command}`);
        const t = Date.now();
        await step(plan.install.command);
        log(`Installed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
        if (key && (await cache.save(key, src, plan.install.cacheDir).catch((err: Error) => void this.o.log.warn({ err }, 'build cache: save failed')))) {
          log('Dependencies saved to the cache');
        }
      }
    }
    if (plan.build) {
      log(`Building: ${plan.build}`);
      const t = Date.now();
      await step(plan.build);
      log(`Built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    // Everything the build started is gone now (its group was emptied): the folder holds still.
    const outcome = await this.outcome(src, plan);
    log(outcome.kind === 'static' ? `Output: ${path.relative(src, outcome.dir) || 'the top folder'}` : `Start: ${outcome.command ? outcome.command.join(' ') : outcome.entry}`);
    return outcome;
  }

  /** The variables a build sees: the site's own, then the platform's (paths and caches win). */
  private environment(site: Record<string, string>): Record<string, string> {
    const env: Record<string, string> = { CI: '1', ...site };
    Object.assign(env, {
      PATH: `/app/node_modules/.bin:${SITE_PATH}`, HOME: '/tmp', TMPDIR: '/tmp',
      npm_config_cache: `${BUILD_CACHE}/npm`, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false',
      PIP_CACHE_DIR: `${BUILD_CACHE}/pip`, PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1',
      COMPOSER_HOME: `${BUILD_CACHE}/composer`, COMPOSER_CACHE_DIR: `${BUILD_CACHE}/composer/cache`, COMPOSER_ALLOW_SUPERUSER: '0',
      // Path repositories are copied, not linked: a deployment keeps regular files only.
      COMPOSER_MIRROR_PATH_REPOS: '1',
      NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1',
    });
    // The certificates the host trusts (a TLS-inspecting proxy's), when they sit where the sandbox sees them.
    const extraCa = process.env.NODE_EXTRA_CA_CERTS;
    if (extraCa && /^\/(etc\/ssl|usr)\//.test(extraCa)) env.NODE_EXTRA_CA_CERTS = extraCa;
    if (this.o.pipIndexUrl) env.PIP_INDEX_URL = this.o.pipIndexUrl;
    else env.PIP_NO_INDEX = '1';
    return env;
  }

  /** cacheRoot/<project>/{downloads (the uid's, at /cache), deps (root's), passwd, group}. */
  private async projectDirs(projectId: string, uid: number) {
    const base = path.join(this.o.cacheRoot, projectId);
    await fsp.mkdir(base, { recursive: true, mode: 0o711 });
    const downloads = path.join(base, 'downloads');
    await fsp.mkdir(downloads, { recursive: true, mode: 0o700 });
    await fsp.lchown(downloads, uid, uid);
    const deps = path.join(base, 'deps');
    await fsp.mkdir(deps, { recursive: true, mode: 0o700 });
    const files = passwdFiles(uid);
    const passwd = path.join(base, 'passwd');
    const group = path.join(base, 'group');
    for (const [file, text] of [[passwd, files.passwd], [group, files.group]]) {
      await fsp.writeFile(file, text, { mode: 0o644 });
      await fsp.chmod(file, 0o644);
    }
    return { downloads, deps, passwd, group };
  }

  /** The download cache counts against the disk limit: past half of it, it starts again empty. */
  private async trimDownloads(downloads: string, uid: number): Promise<void> {
    if ((await diskUsage([downloads])) <= this.o.limits.diskBytes / 2) return;
    await fsp.rm(downloads, { recursive: true, force: true });
    await fsp.mkdir(downloads, { mode: 0o700 });
    await fsp.lchown(downloads, uid, uid);
  }

  private async outcome(src: string, plan: BuildPlan): Promise<BuildOutcome> {
    if (plan.output.kind === 'static') return { kind: 'static', dir: await staticOutput(src, plan.output.dir) };
    const names = new Set((await regularFiles(src, ['node_modules', '.venv', 'vendor'])).files.map((f) => f.rel));
    const read = (n: string) => fsp.readFile(path.join(src, n), 'utf8');
    const refusedLayout = async <T>(p: Promise<T>) => {
      try {
        return await p;
      } catch (err) {
        if (err instanceof ZipRefusedError) throw new BuildFailedError(err.message);
        throw err;
      }
    };
    if (plan.output.kind === 'node') {
      if (plan.start) return { kind: 'node', dir: src, ...(await startCommand(src, plan.start, read)) };
      const layout = await refusedLayout(runtimeLayout('node', names, read));
      return { kind: 'node', dir: src, entry: layout.entry! };
    }
    if (plan.output.kind === 'php') {
      const layout = await refusedLayout(runtimeLayout('php', names, read));
      return { kind: 'php', dir: src, entry: layout.entry! };
    }
    const layout = await refusedLayout(runtimeLayout('flask', names, read));
    const outcome: BuildOutcome = { kind: 'flask', dir: src, entry: layout.entry! };
    const sitePackages = await venvSitePackages(src);
    if (sitePackages) outcome.command = flaskCommand(layout.entry!, `/app/${sitePackages}`);
    return outcome;
  }
}

/**
 * <platform pid>-build-<deployment>: starting with the pid as the sites' groups do, so a group left
 * by a platform killed mid-build is removed by the next start's sweep (runtime.process.ts).
 */
export function buildGroupName(deploymentId: string): string {
  return `${process.pid}-build-${deploymentId}`;
}
