// `hostbase deploy [folder]`: makes the folder the project's live site. A folder with nothing to
// build is an instant redeploy (only the files the platform lacks are sent); source code is zipped,
// built on the server and its build log printed as it runs. The address printed is the one the
// platform answers (the project's site_url, with its scheme and port): never pieced together here.
import fs from 'node:fs';
import path from 'node:path';
import { apiBase, call, pickProject, session } from '../api.js';
import { CliError, EXIT } from '../errors.js';
import { followBuild, FollowError } from '../follow-build.js';
import { manifestDeploy, needsBuild } from '../instant-deploy.js';
import type { Output } from '../output.js';
import { findProjectConfig } from '../project-config.js';
import { guessType, TYPES } from '../site-type.js';
import { listFolder, zipEntries, ZipRefused } from '../zip.js';

const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`);

export interface DeployOptions {
  url?: string;
  project?: string;
  type?: string;
}

/** The folder: as given, else hostbase.json's (relative to that file), else the current one. */
function whichFolder(given: string | undefined): string {
  if (given) return given;
  const found = findProjectConfig();
  return found ? path.relative(process.cwd(), path.resolve(path.dirname(found.file), found.config.folder ?? '.')) || '.' : '.';
}

export async function deploy(given: string | undefined, o: DeployOptions, out: Output): Promise<void> {
  const folder = whichFolder(given);
  if (!fs.existsSync(folder)) throw new CliError(`${folder}: no such folder`);
  const type = o.type ?? findProjectConfig()?.config.type;
  if (type && !TYPES.includes(type)) throw new CliError(`Unknown type "${type}". Choose one of: ${TYPES.join(', ')}.`, EXIT.usage);
  const c = session(o.url);
  const project = await pickProject(c, o.project);
  let entries;
  const skipped: string[] = [];
  try {
    entries = listFolder(folder, skipped);
  } catch (err) {
    if (err instanceof ZipRefused) throw new CliError(`Not deployed: ${err.message}`);
    throw err;
  }
  if (!entries.length) throw new CliError(`Not deployed: ${folder} has no files.`);
  const byName = new Map(entries.map((e) => [e.name, e.file]));
  const kind = type ?? guessType([...byName.keys()], (n) => fs.readFileSync(byName.get(n)!, 'utf8'));
  if (skipped.length) out.info(`Leaving out ${skipped.join(', ')}: installed dependencies, which the build installs again.`);
  // Older platforms answer no site_url: then the domain alone, rather than a guessed scheme and port.
  const site = project.site_url ?? project.primary_domain;
  const done = (id: string, status: string) =>
    out.result({ deployment_id: id, status, site_url: project.site_url ?? null, project: { id: project.id, subdomain: project.subdomain } }, () => out.info(`Deployment ${id} is ${status}: ${site}`));
  const files = `${entries.length} file${entries.length === 1 ? '' : 's'}`;
  if (!needsBuild([...byName.keys()])) {
    out.info(`Deploying ${files} from ${folder} to ${project.primary_domain} as ${kind}…`);
    const api = { post: <T>(p: string, json: unknown) => call<T>(c.url, p, { token: c.token, json }), upload: <T>(p: string, form: FormData) => call<T>(c.url, p, { token: c.token, form }) };
    const live = await manifestDeploy(api, project.id, kind, entries, (line) => out.info(line));
    return done(live.deployment.id, live.deployment.status);
  }
  const zip = zipEntries(entries);
  out.info(`Deploying ${files} (${size(zip.length)} zipped) from ${folder} to ${project.primary_domain} as ${kind}…`);
  const form = new FormData();
  form.append('type', kind);
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), `${path.basename(path.resolve(folder)) || 'site'}.zip`);
  const started = await call<{ message: string; deployment: { id: string; status: string } }>(c.url, `/project/${project.id}/upload-and-extract-zip/`, { token: c.token, form });
  const id = started.deployment.id;
  // 202: source code, built on the server. The live site stays as it was until the build succeeds.
  if (started.deployment.status !== 'building') return done(id, started.deployment.status);
  out.info(started.message);
  const stop = () => {
    console.error(`\nStopped following; the build goes on. Follow it again with \`hostbase logs --follow --build --deployment ${id}\`.`);
    process.exit(EXIT.interrupted);
  };
  process.once('SIGINT', stop);
  let last = '\n';
  let end;
  try {
    end = await followBuild({
      url: `${apiBase(c.url)}/project/${project.id}/deployments/${id}/log-stream`,
      token: c.token,
      write: (text) => {
        out.write(text);
        last = text.slice(-1) || last;
      },
      retryMs: Number(process.env.HOSTBASE_POLL_MS) || undefined,
    });
  } catch (err) {
    if (err instanceof FollowError) throw new CliError(`${err.message}\nThe build may still be running: \`hostbase logs --follow --build --deployment ${id}\`.`);
    throw err;
  } finally {
    process.off('SIGINT', stop);
  }
  if (last !== '\n') out.write('\n');
  if (end.status === 'failed') throw new CliError(`Build failed: ${end.error ?? 'no reason given'}\nThe live site stays as it was.`);
  done(id, 'live');
}
