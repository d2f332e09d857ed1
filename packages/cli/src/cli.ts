#!/usr/bin/env node
// `hostbase`: the developer's command line. Signs in as the developer (the console's account), lists
// projects, deploys a folder to a project's hosting and follows its logs. The token is kept in the
// user's config folder, readable by the user only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { followBuild, FollowError } from './follow-build.js';
import { guessType } from './site-type.js';
import { manifestDeploy, needsBuild } from './instant-deploy.js';
import { listFolder, zipEntries, ZipRefused } from './zip.js';

class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

const HELP = `hostbase: deploy and follow your Hostbase sites

Usage:
  hostbase login [--url URL] [--email EMAIL]   sign in (asks for the password, and a code when two-factor is on)
  hostbase logout                              forget the stored token
  hostbase projects [--json]                   your projects
  hostbase deploy <folder> [--project P] [--type T]
                                               make the folder the project's live site: a folder with nothing
                                               to build sends only the files the platform does not have yet
                                               (instant redeploy); source code (package.json, composer.json,
                                               requirements.txt) is zipped, built on the server and its build
                                               log printed as it runs
                                               (node_modules/ and Python virtualenvs are left out: the build installs them)
  hostbase logs [--project P] [--deployment D] [--build | --runtime] [--follow]
                                               the deploy (build) and runtime logs of the live site
  hostbase env list [--project P] [--json]     the site's environment variables (secrets masked)
  hostbase env set NAME=VALUE… [--secret] [--project P]
                                               set variables (--secret: sealed, never shown again); the site restarts
  hostbase env unset NAME… [--project P]       remove variables
Options:
  --url URL        the platform (default: the one you signed in to, else $HOSTBASE_URL, else http://localhost:3000)
  --project P      a project's id or subdomain (default: your only project)
  --type T         Static, Node, PHP, Flask, React, Vite, Angular, Next.js, Vue, Astro (default: guessed from the folder)
  -f, --follow     keep printing new log lines

The token is stored in ${'$'}HOSTBASE_CONFIG_DIR, else ${'$'}XDG_CONFIG_HOME/hostbase, else ~/.config/hostbase (mode 0600).
HOSTBASE_PASSWORD and HOSTBASE_MFA_CODE answer the prompts of login without a terminal.`;

// ---------------------------------------------------------------- stored credentials

interface Credentials {
  url: string;
  email: string;
  token: string;
  device_token?: string;
}

export function configDir(env = process.env): string {
  if (env.HOSTBASE_CONFIG_DIR) return env.HOSTBASE_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'hostbase');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'hostbase');
}
const credentialsFile = () => path.join(configDir(), 'credentials.json');

function readCredentials(): Credentials | undefined {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeCredentials(c: Credentials): string {
  const file = credentialsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written to a new private file, then moved over the old one: never readable by others, not even briefly.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(c, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

// ---------------------------------------------------------------- the API

const apiBase = (url: string) => url.replace(/\/+$/, '').replace(/\/api$/, '') + '/api';

async function call<T>(url: string, p: string, o: { json?: unknown; form?: FormData; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.json !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiBase(url) + p, { method: 'POST', headers, body: o.form ?? JSON.stringify(o.json ?? {}) });
  } catch (err) {
    throw new CliError(`Could not reach ${url}: ${(err as { cause?: Error }).cause?.message ?? (err as Error).message}`);
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

function session(urlOption?: string): Credentials {
  const c = readCredentials();
  if (!c) throw new CliError('Not signed in. Run `hostbase login` first.');
  if (urlOption && apiBase(urlOption) !== apiBase(c.url)) throw new CliError(`You are signed in to ${c.url}, not ${urlOption}. Run \`hostbase login --url ${urlOption}\`.`);
  return c;
}

interface Project {
  id: string;
  project_name: string;
  subdomain: string;
  primary_domain: string;
  created_at: string;
  /** The site's address with the platform's scheme and port (older platforms: absent). */
  site_url?: string;
}

async function pickProject(c: Credentials, wanted?: string): Promise<Project> {
  const projects = await call<Project[]>(c.url, '/projects', { token: c.token });
  if (wanted) {
    const p = projects.find((x) => x.id === wanted || x.subdomain === wanted || x.primary_domain === wanted);
    if (!p) throw new CliError(`No project "${wanted}" among yours (${projects.map((x) => x.subdomain).join(', ') || 'none'}).`);
    return p;
  }
  if (projects.length === 1) return projects[0];
  if (!projects.length) throw new CliError('You have no project yet: create one in the console.');
  throw new CliError(`You have ${projects.length} projects: name one with --project (${projects.map((x) => x.subdomain).join(', ')}).`);
}

// ---------------------------------------------------------------- prompts

function prompter() {
  const tty = Boolean(process.stdin.isTTY);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: tty });
  const lines: string[] = [];
  const waiting: ((l: string | undefined) => void)[] = [];
  let closed = false;
  let muted = false;
  rl.on('line', (l) => (waiting.length ? waiting.shift()!(l) : lines.push(l)));
  rl.on('close', () => {
    closed = true;
    while (waiting.length) waiting.shift()!(undefined);
  });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  const write = out._writeToOutput.bind(rl);
  out._writeToOutput = (s) => {
    if (!muted) write(s);
  };
  return {
    async ask(question: string, hidden = false): Promise<string> {
      process.stderr.write(question);
      muted = hidden && tty;
      const line = lines.length ? lines.shift() : closed ? undefined : await new Promise<string | undefined>((r) => waiting.push(r));
      if (muted) process.stderr.write('\n');
      muted = false;
      if (line === undefined) throw new CliError(`\nNo answer to "${question.trim()}" on standard input.`);
      if (!tty) process.stderr.write('\n');
      return line.trim();
    },
    close: () => rl.close(),
  };
}

// ---------------------------------------------------------------- commands

async function login(o: { url?: string; email?: string }): Promise<void> {
  const url = o.url ?? readCredentials()?.url ?? process.env.HOSTBASE_URL ?? 'http://localhost:3000';
  const p = prompter();
  try {
    const email = o.email ?? (await p.ask('Email: '));
    const password = process.env.HOSTBASE_PASSWORD || (await p.ask('Password: ', true));
    const before = readCredentials();
    const device = before?.email === email && apiBase(before.url) === apiBase(url) ? before.device_token : undefined;
    const first = await call<{ message: string; token?: string; mfa_token?: string; device_token?: string }>(url, '/verify_user', {
      json: { email, password, ...(device ? { device_token: device } : {}) },
    });
    let answer: { token?: string; device_token?: string } = first;
    if (first.message === 'mfa') {
      const code = process.env.HOSTBASE_MFA_CODE || (await p.ask('Two-factor code (or a recovery code): '));
      answer = await call<{ token: string; device_token?: string }>(url, '/verifyMFACode', {
        json: { email, mfa_code: code, ...(first.mfa_token ? { mfa_token: first.mfa_token } : {}), ...(device ? { device_token: device } : {}) },
      });
    }
    if (!answer.token) throw new CliError('Sign-in failed: no token in the answer.');
    const file = writeCredentials({ url, email, token: answer.token, device_token: answer.device_token ?? device });
    console.log(`Signed in to ${url} as ${email} (token stored in ${file}).`);
  } finally {
    p.close();
  }
}

function logout(): void {
  const had = fs.existsSync(credentialsFile());
  fs.rmSync(credentialsFile(), { force: true });
  console.log(had ? 'Signed out: the stored token is deleted.' : 'Not signed in.');
}

async function projects(o: { url?: string; json?: boolean }): Promise<void> {
  const c = session(o.url);
  const list = await call<Project[]>(c.url, '/projects', { token: c.token });
  if (o.json) return void console.log(JSON.stringify(list, null, 2));
  if (!list.length) return void console.log('No projects yet: create one in the console.');
  const rows = [['ID', 'NAME', 'DOMAIN', 'CREATED'], ...list.map((p) => [p.id, p.project_name, p.primary_domain, p.created_at.slice(0, 10)])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd());
}

const TYPES = ['Static', 'Node', 'PHP', 'Flask', 'React', 'Vite', 'Angular', 'Next.js', 'Vue', 'Astro', 'Node.js'];

const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`);

async function deploy(folder: string | undefined, o: { url?: string; project?: string; type?: string }): Promise<void> {
  if (!folder) throw new CliError('Usage: hostbase deploy <folder> [--project P] [--type T]', 2);
  if (!fs.existsSync(folder)) throw new CliError(`${folder}: no such folder`);
  const type = o.type ?? undefined;
  if (type && !TYPES.includes(type)) throw new CliError(`Unknown type "${type}". Choose one of: ${TYPES.join(', ')}.`, 2);
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
  if (skipped.length) console.log(`Leaving out ${skipped.join(', ')}: installed dependencies, which the build installs again.`);
  const site = project.site_url ?? `${new URL(apiBase(c.url)).protocol}//${project.primary_domain}`;
  if (!needsBuild([...byName.keys()])) {
    // Nothing to build: an instant redeploy, sending only the files the platform does not have.
    console.log(`Deploying ${entries.length} file${entries.length === 1 ? '' : 's'} from ${folder} to ${project.primary_domain} as ${kind}…`);
    const api = { post: <T>(p: string, json: unknown) => call<T>(c.url, p, { token: c.token, json }), upload: <T>(p: string, form: FormData) => call<T>(c.url, p, { token: c.token, form }) };
    const live = await manifestDeploy(api, project.id, kind, entries, (line) => console.log(line));
    console.log(`Deployment ${live.deployment.id} is ${live.deployment.status}: ${site}`);
    return;
  }
  const zip = zipEntries(entries);
  console.log(`Deploying ${entries.length} file${entries.length === 1 ? '' : 's'} (${size(zip.length)} zipped) from ${folder} to ${project.primary_domain} as ${kind}…`);
  const form = new FormData();
  form.append('type', kind);
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }), `${path.basename(path.resolve(folder)) || 'site'}.zip`);
  const done = await call<{ message: string; deployment: { id: string; status: string } }>(c.url, `/project/${project.id}/upload-and-extract-zip/`, { token: c.token, form });
  const id = done.deployment.id;
  // 202: source code, built on the server. The live site stays as it was until the build succeeds.
  if (done.deployment.status === 'building') {
    console.log(done.message);
    const stop = () => {
      console.error(`\nStopped following; the build goes on. Follow it again with \`hostbase logs --follow --build --deployment ${id}\`.`);
      process.exit(130);
    };
    process.once('SIGINT', stop);
    let last = '\n';
    let end;
    try {
      end = await followBuild({
        url: `${apiBase(c.url)}/project/${project.id}/deployments/${id}/log-stream`,
        token: c.token,
        write: (text) => {
          process.stdout.write(text);
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
    if (last !== '\n') process.stdout.write('\n');
    if (end.status === 'failed') throw new CliError(`Build failed: ${end.error ?? 'no reason given'}\nThe live site stays as it was.`);
  }
  const status = done.deployment.status === 'building' ? 'live' : done.deployment.status;
  console.log(`Deployment ${id} is ${status}: ${site}`);
}

interface Deployment {
  id: string;
  status: string;
  live: boolean;
  created_at: string;
}

/** What `next` adds to the `prev` we printed; the runtime log keeps only its tail, so its head may have gone. */
export function newText(prev: string, next: string): string {
  if (next.startsWith(prev)) return next.slice(prev.length);
  const anchor = prev.slice(-256);
  const at = anchor ? next.lastIndexOf(anchor) : -1;
  return at >= 0 ? next.slice(at + anchor.length) : next;
}

async function logs(o: { url?: string; project?: string; deployment?: string; follow?: boolean; build?: boolean; runtime?: boolean }): Promise<void> {
  const c = session(o.url);
  const project = await pickProject(c, o.project);
  const which = async (): Promise<Deployment | undefined> => {
    const h = await call<{ deployments: Deployment[]; live_deployment_id: string | null }>(c.url, `/project/${project.id}/deployments`, { token: c.token });
    if (o.deployment) {
      const d = h.deployments.find((x) => x.id === o.deployment);
      if (!d) throw new CliError(`No deployment ${o.deployment} in ${project.subdomain}.`);
      return d;
    }
    // The newest while it is building (its deploy log is what moves), else the live one, else the newest.
    const newest = h.deployments[0];
    return newest?.status === 'building' ? newest : (h.deployments.find((d) => d.id === h.live_deployment_id) ?? newest);
  };
  const showBuild = !o.runtime;
  const showRuntime = !o.build;
  let current = await which();
  if (!current) throw new CliError(`${project.subdomain} has no deployment yet: run \`hostbase deploy <folder>\`.`);
  let shown = { build: '', runtime: '' };
  let stop = false;
  const quit = () => (stop = true);
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  const interval = Number(process.env.HOSTBASE_POLL_MS) || 2000;
  for (let first = true; ; first = false) {
    const l = await call<{ build_log: string; runtime_log: string }>(c.url, `/project/${project.id}/deployments/${current.id}/logs`, { token: c.token });
    if (first) console.log(`== deployment ${current.id} (${current.status}) of ${project.primary_domain}`);
    if (showBuild) {
      const add = newText(shown.build, l.build_log);
      if (first && showBuild && showRuntime) console.log('== deploy log');
      if (add) process.stdout.write(add.endsWith('\n') ? add : add + '\n');
    }
    if (showRuntime) {
      if (first && showBuild) console.log('== runtime log');
      const add = newText(shown.runtime, l.runtime_log);
      if (add) process.stdout.write(add.endsWith('\n') ? add : add + '\n');
    }
    shown = { build: l.build_log, runtime: l.runtime_log };
    if (!o.follow) return;
    await new Promise((r) => setTimeout(r, interval));
    if (stop) return;
    if (!o.deployment) {
      const next = await which();
      if (next && next.id !== current.id) {
        current = next;
        shown = { build: '', runtime: '' };
        console.log(`== deployment ${current.id} (${current.status})`);
      }
    }
  }
}

interface SiteEnv {
  variables: { name: string; secret: boolean; value: string | null; updated_at: string }[];
  message?: string;
  restarted?: boolean;
}

function printEnv(env: SiteEnv): void {
  if (!env.variables.length) return void console.log('No variables.');
  for (const v of env.variables) console.log(`${v.name}=${v.secret ? '•••••• (secret)' : v.value}`);
}

async function envCommand(sub: string | undefined, args: string[], o: { url?: string; project?: string; json?: boolean; secret?: boolean }): Promise<void> {
  const usage = 'Usage: hostbase env list | set NAME=VALUE… [--secret] | unset NAME…  [--project P]';
  if (!sub || !['list', 'set', 'unset'].includes(sub)) throw new CliError(usage, 2);
  if (sub !== 'list' && !args.length) throw new CliError(usage, 2);
  const c = session(o.url);
  const project = await pickProject(c, o.project);
  const base = `/project/${project.id}/hosting/env`;
  let env: SiteEnv;
  if (sub === 'list') env = await call<SiteEnv>(c.url, base, { token: c.token, json: {} });
  else if (sub === 'unset') env = await call<SiteEnv>(c.url, `${base}/unset`, { token: c.token, json: { names: args } });
  else {
    const variables = args.map((a) => {
      const at = a.indexOf('=');
      if (at <= 0) throw new CliError(`"${a}" is not NAME=VALUE.`, 2);
      return { name: a.slice(0, at), value: a.slice(at + 1), ...(o.secret ? { secret: true } : {}) };
    });
    env = await call<SiteEnv>(c.url, `${base}/set`, { token: c.token, json: { variables } });
  }
  if (o.json) return void console.log(JSON.stringify(env, null, 2));
  if (env.message) console.log(env.message);
  printEnv(env);
}

// ---------------------------------------------------------------- main

export async function main(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      url: { type: 'string' },
      email: { type: 'string' },
      project: { type: 'string', short: 'p' },
      type: { type: 'string' },
      deployment: { type: 'string', short: 'd' },
      follow: { type: 'boolean', short: 'f' },
      build: { type: 'boolean' },
      runtime: { type: 'boolean' },
      json: { type: 'boolean' },
      secret: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (v.help || !command || command === 'help') {
    console.log(HELP);
    return command || v.help ? 0 : 2;
  }
  switch (command) {
    case 'login':
      await login(v);
      return 0;
    case 'logout':
      logout();
      return 0;
    case 'projects':
      await projects(v);
      return 0;
    case 'deploy':
      await deploy(rest[0], v);
      return 0;
    case 'logs':
      await logs(v);
      return 0;
    case 'env':
      await envCommand(rest[0], rest.slice(1), v);
      return 0;
    default:
      throw new CliError(`Unknown command "${command}". Run \`hostbase --help\`.`, 2);
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    const usage = (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(err instanceof CliError || usage ? err.message : err);
    process.exitCode = err instanceof CliError ? err.exitCode : usage ? 2 : 1;
  },
);
