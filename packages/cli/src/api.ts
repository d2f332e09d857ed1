// The platform's developer API as the CLI calls it: where it is, who is calling (the stored sign-in
// or $HOSTBASE_TOKEN), one POST with errors turned into CliErrors, and the project a command is for.
import { readCredentials } from './credentials.js';
import { CliError, EXIT } from './errors.js';
import { findProjectConfig } from './project-config.js';

export const DEFAULT_URL = 'http://localhost:3000';

export const apiBase = (url: string) => url.replace(/\/+$/, '').replace(/\/api$/, '') + '/api';

export interface Session {
  url: string;
  token: string;
  email?: string;
}

export interface CallOptions {
  json?: unknown;
  form?: FormData;
  token?: string;
}

export async function call<T>(url: string, p: string, o: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.json !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiBase(url) + p, { method: 'POST', headers, body: o.form ?? JSON.stringify(o.json ?? {}) });
  } catch (err) {
    const why = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
    throw new CliError(`Could not reach Hostbase at ${url} — is the server running, and the address right? (${why})`, EXIT.unreachable);
  }
  const text = await res.text();
  let body: { message?: unknown } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    if (res.status === 401 && o.token) throw new CliError(`Your sign-in has expired or was revoked (${body?.message ?? 'unauthorized'}). Run \`hostbase login\`.`);
    throw new CliError(typeof body?.message === 'string' ? body.message : `HTTP Error: ${res.status}`);
  }
  return body as T;
}

/**
 * The platform a command talks to: --url, else the app's hostbase.json, else the one signed in
 * to, else $HOSTBASE_URL, else the local default.
 */
export function platformUrl(urlOption?: string): string {
  return urlOption || findProjectConfig()?.config.url || readCredentials()?.url || process.env.HOSTBASE_URL || DEFAULT_URL;
}

/** Who is calling: $HOSTBASE_TOKEN (scripts, CI) or the stored sign-in for that platform. */
export function session(urlOption?: string): Session {
  const url = platformUrl(urlOption);
  if (process.env.HOSTBASE_TOKEN) return { url, token: process.env.HOSTBASE_TOKEN };
  const c = readCredentials();
  if (!c) throw new CliError('Not signed in. Run `hostbase login` first.');
  if (apiBase(url) !== apiBase(c.url)) throw new CliError(`You are signed in to ${c.url}, not ${url}. Run \`hostbase login --url ${url}\`.`);
  return c;
}

export interface Project {
  id: string;
  project_name: string;
  subdomain: string;
  primary_domain: string;
  created_at: string;
  /** The site's address with the platform's scheme and port (older platforms: absent). */
  site_url?: string;
}

export const listProjects = (c: Session) => call<Project[]>(c.url, '/projects', { token: c.token });

/** The project named by --project, else the linked one (hostbase.json), else the only one. */
export async function pickProject(c: Session, wanted = findProjectConfig()?.config.project): Promise<Project> {
  const projects = await listProjects(c);
  if (wanted) {
    const p = projects.find((x) => x.id === wanted || x.subdomain === wanted || x.primary_domain === wanted);
    if (!p) throw new CliError(`No project "${wanted}" among yours (${projects.map((x) => x.subdomain).join(', ') || 'none'}).`);
    return p;
  }
  if (projects.length === 1) return projects[0];
  if (!projects.length) throw new CliError('You have no project yet: create one in the console.');
  throw new CliError(`You have ${projects.length} projects: name one with --project (${projects.map((x) => x.subdomain).join(', ')}), or run \`hostbase link\`.`);
}
