// A project's site in an archive: its live deployment as one zip (an uploaded or built
// deployment's stored archive as it is; one made by the manifest API has no archive, so its files,
// the project's content-addressed blobs, are zipped at export and it comes back as an ordinary
// archive deployment), with what it was deployed or built with (its entry, rules, framework,
// runtime, command); the site's variables (a secret's value plain in the archive, sealed again
// with the target's secret, bound to its project and name); its build settings. Older and failed
// deployments, traffic and errors are this platform's history. On delete, the module stops the
// site's processes and removes its files (HostingService.removeProject).
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Deps } from '../../platform/deps';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { zipFolder } from '../../platform/zip-folder';
import { LifecycleError, requireUuid, type ProjectLifecycle, type ProjectRow } from '../projects';
import { hostingArchiveRows as rows } from './hosting.repository';
import { blobKey, deploymentKind, extractPlan, pathProblem, planZip, runtimeLayout, siteKeyPrefix } from './deploy';
import { envNameProblem, openVariable, sealVariable, type RuntimeKind } from './runtime';

const HISTORY = "this platform's history of the site";
const MANIFEST = "a manifest deployment is carried as the zip of its files (an archive deployment on the target)";

const TABLES = {
  site_deployments: {
    carried: ['id', 'type', 'status', 'size_bytes', 'file_count', 'root', 'entry', 'error', 'build_log', 'created_at', 'finished_at', 'stored_bytes', 'rules', 'framework', 'command', 'runtime'],
    leftOut: {
      project_id: "the section's project",
      builder: 'the instance that built it: its build is over (only the live deployment is carried)',
      heartbeat_at: 'a build in flight on this platform: its build is over',
      build_started_at: 'a build slot of this platform: its build is over',
    },
  },
  sites: {
    carried: ['live_deployment_id', 'updated_at'],
    leftOut: {
      project_id: "the section's project",
      env_version: "counts this platform's changes of the variables: 1 on the target when variables come with the site",
    },
  },
  site_env: { carried: ['name', 'value', 'secret', 'updated_at'], leftOut: { project_id: "the section's project" } },
  site_build_settings: {
    carried: ['root_directory', 'install_command', 'build_command', 'start_command', 'output_directory', 'updated_at'],
    leftOut: { project_id: "the section's project" },
  },
  site_manifests: { carried: [], leftOut: MANIFEST },
  site_blobs: { carried: [], leftOut: MANIFEST },
  site_traffic: { carried: [], leftOut: HISTORY },
  site_errors: { carried: [], leftOut: HISTORY },
  site_runtime_logs: { carried: [], leftOut: "the output of the site's processes on this platform" },
  site_identities: { carried: [], leftOut: "the host uid the site's processes run as here: the target allocates its own" },
  site_runner_lease: { carried: [], leftOut: 'which instance runs the sites: no project\'s' },
} as const;

export function hostingLifecycle(deps: Pick<Deps, 'secrets' | 'objectStore'>, remove?: (project: ProjectRow) => Promise<void>): ProjectLifecycle {
  const { secrets, objectStore: store } = deps;
  return {
    name: 'hosting',
    after: ['projects'],
    tables: TABLES,

    async export(out) {
      const live = await rows.live(out.tx, out.projectId, TABLES.site_deployments.carried);
      if (live) {
        const deployment: Record<string, unknown> = { ...live.deployment };
        if (live.manifest) {
          // No archive.zip: the deployment's files are zipped after the snapshot, and its stored
          // bytes become what a zip deploy of the same files would hold.
          const files = live.manifest;
          const zip = out.file();
          deployment.member = zip.member;
          out.afterSnapshot(async () => {
            const size = await zipManifest(store, out.projectId, files, zip.path);
            deployment.stored_bytes = Number(deployment.size_bytes ?? 0) + size;
          });
        } else deployment.member = out.object(siteKeyPrefix(out.projectId, String(deployment.id)) + 'archive.zip');
        out.put('site', { deployment, updated_at: live.updatedAt });
      } else out.put('site', null);
      const env = await rows.env(out.tx, out.projectId, TABLES.site_env.carried);
      out.put('site_env', env.map((v) => (v.secret ? { ...v, value: openSecret(secrets, out.projectId, v) } : v)));
      out.put('build_settings', await rows.buildSettings(out.tx, out.projectId, TABLES.site_build_settings.carried));
      out.count('deployments', live ? 1 : 0);
    },

    async import(input) {
      const site = input.row('site');
      const env = input.rows('site_env');
      if (site) {
        const dep = site.deployment as Record<string, unknown> | null;
        if (!dep || typeof dep !== 'object') throw new LifecycleError("the site's deployment in the archive is malformed");
        const id = requireUuid(dep.id, "the site's deployment id");
        if (dep.status !== 'live') throw new LifecycleError('the archived deployment is not a live one');
        input.storeObject(dep.member, siteKeyPrefix(input.projectId, id) + 'archive.zip', 'application/zip');
        const entry = dep.entry ?? (await lostEntry(dep, input.file(dep.member)));
        await rows.insertDeployment(input.tx, ['project_id', ...TABLES.site_deployments.carried], { ...dep, entry, project_id: input.projectId });
      }
      if (site || env.length) {
        const live = site && (site.deployment as Record<string, unknown>).id;
        await rows.insertSite(input.tx, ['project_id', 'live_deployment_id', 'updated_at', 'env_version'], {
          project_id: input.projectId,
          live_deployment_id: live ?? undefined,
          updated_at: site?.updated_at ?? undefined,
          // Processes started here read the variables fresh (SiteEnv bumps it per change).
          env_version: env.length ? 1 : undefined,
        });
      }
      const vars = env.map((v) => {
        const name = typeof v.name === 'string' ? v.name : '';
        const problem = envNameProblem(name);
        if (problem || typeof v.value !== 'string' || typeof v.secret !== 'boolean') throw new LifecycleError(`a site variable in the archive is malformed${problem ? ` (${problem})` : ''}`);
        return { ...v, project_id: input.projectId, value: v.secret ? sealVariable(secrets, input.projectId, name, v.value) : v.value };
      });
      await rows.insertEnv(input.tx, ['project_id', ...TABLES.site_env.carried], vars);
      const settings = input.row('build_settings');
      if (settings) await rows.insertBuildSettings(input.tx, ['project_id', ...TABLES.site_build_settings.carried], { ...settings, project_id: input.projectId });
    },

    ...(remove ? { delete: remove } : {}),
  };
}

function openSecret(secrets: Deps['secrets'], projectId: string, v: Record<string, unknown>): string {
  try {
    return openVariable(secrets, projectId, { name: String(v.name), value: String(v.value) });
  } catch {
    throw new LifecycleError(`The site's secret ${String(v.name)} is sealed for another site: not exported`);
  }
}

/**
 * A Node, PHP or Flask deployment runs its entry (or a built command). Archives written before
 * format 2 carried the archive member's name in place of the entry: it is found again in the
 * deployment's files, as a deploy of them finds it. Null for what runs without one.
 */
async function lostEntry(dep: Record<string, unknown>, zipFile: string): Promise<string | null> {
  const kind = deploymentKind({ type: String(dep.type), runtime: dep.runtime as string | null });
  if (!kind || dep.command) return null;
  return (await entryIn(kind, zipFile)) ?? null;
}

async function entryIn(kind: RuntimeKind, zipFile: string): Promise<string | undefined> {
  const plan = await planZip(zipFile);
  const dir = `${zipFile}.entry`;
  try {
    const names = new Set(plan.files.map((f) => f.name));
    const read = async (name: string) => {
      await extractPlan({ ...plan, files: plan.files.filter((f) => f.name === name) }, dir);
      return fsp.readFile(path.join(dir, name), 'utf8');
    };
    return (await runtimeLayout(kind, names, read)).entry;
  } catch (err) {
    throw new LifecycleError(`the site's deployment names no entry, and its files have none a deploy would start (${(err as Error).message})`);
  } finally {
    plan.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

const DIGEST = /^[0-9a-f]{64}$/;

/**
 * A manifest deployment's files (the project's blobs, as SiteFiles.ensureLocal lays them out)
 * zipped into `out`; its size. Each blob is checked against its digest: a damaged stored copy
 * fails the export instead of being carried.
 */
async function zipManifest(store: ObjectStore, projectId: string, files: Record<string, string>, out: string): Promise<number> {
  const dir = `${out}.files`;
  const root = path.resolve(dir);
  await fsp.mkdir(dir, { recursive: true });
  try {
    // One download per digest: the other paths with the same bytes are copies of the first.
    const fetched = new Map<string, string>();
    for (const [rel, digest] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const problem = pathProblem(rel);
      if (problem || !DIGEST.test(digest)) throw new LifecycleError(`The live deployment's manifest lists ${problem ?? `a malformed digest for ${rel}`}`);
      const target = path.resolve(root, rel);
      if (!target.startsWith(root + path.sep)) throw new LifecycleError(`The live deployment's manifest lists an unsafe path ${JSON.stringify(rel)}`);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const first = fetched.get(digest);
      if (first) {
        await fsp.copyFile(first, target, fs.constants.COPYFILE_EXCL);
        continue;
      }
      const got = await store.get(blobKey(projectId, digest)).catch((err: Error) => {
        throw new LifecycleError(`Could not read the live deployment's file ${rel} from the object store (${err.message}); export again`);
      });
      const hash = crypto.createHash('sha256');
      await pipeline(
        got.body,
        async function* (src: AsyncIterable<Buffer>) {
          for await (const c of src) {
            hash.update(c);
            yield c;
          }
        },
        fs.createWriteStream(target, { flags: 'wx', mode: 0o600 }),
      );
      if (hash.digest('hex') !== digest) throw new LifecycleError(`The stored copy of the live deployment's file ${rel} does not match its digest: not exported`);
      fetched.set(digest, target);
    }
    // Level 1, as a built site's archive: mostly compressed assets and minified code.
    await zipFolder(dir, out, { level: 1 });
    return (await fsp.stat(out)).size;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
