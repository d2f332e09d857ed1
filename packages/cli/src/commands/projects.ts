// `hostbase projects`, `hostbase init` and `hostbase link`: the developer's projects, and the
// hostbase.json that ties an app's folder to one of them.
import fs from 'node:fs';
import path from 'node:path';
import { listProjects, pickProject, platformUrl, session, type Project } from '../api.js';
import { CliError, EXIT } from '../errors.js';
import type { Output } from '../output.js';
import { CONFIG_FILE, findProjectConfig, writeProjectConfig } from '../project-config.js';
import { prompter } from '../prompt.js';
import { TYPES } from '../site-type.js';

export async function projects(o: { url?: string }, out: Output): Promise<void> {
  const list = await listProjects(session(o.url));
  out.result(list, () => {
    if (!list.length) return out.info('No projects yet: create one in the console.');
    const rows = [['ID', 'NAME', 'DOMAIN', 'CREATED'], ...list.map((p) => [p.id, p.project_name, p.primary_domain, p.created_at.slice(0, 10)])];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    for (const r of rows) out.info(r.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd());
  });
}

/** `hostbase init [folder]`: a hostbase.json here, recording the folder to deploy (and the project with --project). */
export async function init(folder: string | undefined, o: { url?: string; project?: string; type?: string }, out: Output): Promise<void> {
  if (o.type && !TYPES.includes(o.type)) throw new CliError(`Unknown type "${o.type}". Choose one of: ${TYPES.join(', ')}.`, EXIT.usage);
  const file = path.resolve(CONFIG_FILE);
  const dir = folder ? path.relative(process.cwd(), path.resolve(folder)) || '.' : '.';
  if (folder && !fs.existsSync(folder)) throw new CliError(`${folder}: no such folder`);
  let project: Project | undefined;
  if (o.project) project = await pickProject(session(o.url), o.project);
  const written = writeProjectConfig(file, { url: platformUrl(o.url), folder: dir, type: o.type, project: project?.id, subdomain: project?.subdomain });
  out.result(written, () => {
    out.info(`Wrote ${file}: \`hostbase deploy\` here sends ${dir === '.' ? 'this folder' : dir}.`);
    if (!written.config.project) out.info('Link it to a project with `hostbase link`.');
  });
}

/** `hostbase link [--project P]`: records the project in hostbase.json (asks which when there are several). */
export async function link(o: { url?: string; project?: string }, out: Output): Promise<void> {
  const c = session(o.url);
  const list = await listProjects(c);
  let project: Project | undefined;
  if (o.project || list.length === 1) project = await pickProject(c, o.project ?? list[0].id);
  else if (!list.length) throw new CliError('You have no project yet: create one in the console.');
  else if (out.json) throw new CliError(`You have ${list.length} projects: name one with --project (${list.map((x) => x.subdomain).join(', ')}).`, EXIT.usage);
  else project = await choose(list);
  const file = findProjectConfig()?.file ?? path.resolve(CONFIG_FILE);
  const written = writeProjectConfig(file, { url: c.url, project: project.id, subdomain: project.subdomain });
  out.result({ ...written, project }, () => out.info(`Linked ${path.dirname(file)} to ${project.project_name} (${project.site_url ?? project.primary_domain}) in ${file}.`));
}

async function choose(list: Project[]): Promise<Project> {
  const p = prompter();
  try {
    list.forEach((x, i) => process.stderr.write(`  ${i + 1}) ${x.project_name} (${x.subdomain})\n`));
    for (;;) {
      const answer = await p.ask(`Which project (1-${list.length})? `);
      const picked = list[Number(answer) - 1] ?? list.find((x) => x.subdomain === answer || x.id === answer);
      if (picked) return picked;
    }
  } finally {
    p.close();
  }
}
