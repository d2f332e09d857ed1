// One project with rows and objects in every lifecycle section, exported from one platform and
// imported into a fresh one (another database, data directory and secret): for each section, the
// rows of its tables (the columns it carries; sealed values compared opened) and its objects come
// back equal, and the project works there as it did. Two regressions of the archive written
// before the sections, both found moving a project from PGlite to PostgreSQL: files lost their
// folder and owner and the folder rules were not carried (a public file 404'd for the publishable
// key, an end user's listing dropped to 0, uploads got 403), and a Node site's entry was replaced
// by the archive member's name (it did not start).
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy, makeZip, multipart, registerDeveloper, signUpEndUser, type Developer, type EndUser, type Part, type Project } from '../helpers/factories';
import { site } from '../hosting/site-helpers';
import { backupDeps, exportProject, importProject } from '../../server/src/modules/backup';
import type { ProjectLifecycle } from '../../server/src/modules/projects';
import { EntryRuntime } from './entry-runtime';

jest.setTimeout(120_000);

const SERVER_JS = 'require("http").createServer((q, r) => r.end("node site")).listen(process.env.PORT);\n';
const PUBLIC_FILE = 'terms of service';
const OWNED_FILE = 'ann\'s notes';

let a: TestApp;
let b: TestApp;
let work: string;
let p: Project;
let ann: EndUser;
let ownerB: Developer;
let keys: { publishable: string; secret: string };
let files: { public: string; owned: string };
const runtimeB = new EntryRuntime();
/** Each section's carried rows and objects on the source, read before the project left it. */
const before = new Map<string, { rows: Record<string, string[]>; objects: Record<string, string> }>();

/** Where each table keeps the project's rows that an archive carries. */
const SCOPE: Record<string, string> = {
  projects: 'id = $1',
  project_keys: 'project_id = $1 AND revoked_at IS NULL',
  site_deployments: 'id = (SELECT live_deployment_id FROM sites WHERE project_id = $1)',
  mail_accounts: 'domain_id IN (SELECT id FROM smtp_domains WHERE project_id = $1)',
};

/** A sealed value opened with its platform's secret (each platform seals with its own). */
function opened(t: TestApp, table: string, row: Record<string, unknown>): Record<string, unknown> {
  const open = (v: unknown) => t.app.deps.secrets.open(String(v));
  if (table === 'project_keys') return { ...row, key_enc: open(row.key_enc) };
  if (table === 'smtp_domains') return { ...row, dkim_private_key: open(row.dkim_private_key) };
  if (table === 'site_env' && row.secret) return { ...row, value: open(row.value) };
  return row;
}

async function carried(t: TestApp, section: ProjectLifecycle): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, decl] of Object.entries(section.tables)) {
    if (!decl.carried.length) continue;
    const pairs = decl.carried.map((c) => `'${c}', "${c}"`).join(', ');
    const rows = await t.database.query<{ j: string }>(`SELECT jsonb_build_object(${pairs})::text AS j FROM "${table}" WHERE ${SCOPE[table] ?? 'project_id = $1'}`, [p.id]);
    out[table] = rows.map((r) => JSON.stringify(opened(t, table, JSON.parse(r.j)))).sort();
  }
  // The database section's own tables: the project's schema.
  if (section.name === 'database') {
    const schema = `p_${p.id.replace(/-/g, '')}`;
    const tables = await t.database.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema]);
    for (const { name } of tables) out[`${schema}.${name}`] = (await t.database.query<{ j: string }>(`SELECT to_jsonb(x)::text AS j FROM "${schema}"."${name}" x`)).map((r) => r.j).sort();
  }
  return out;
}

/** The bytes of the section's objects in the store, by key. */
async function objects(t: TestApp, name: string): Promise<Record<string, string>> {
  const prefix = name === 'storage' ? `projects/${p.id}/` : name === 'hosting' ? `sites/${p.id}/` : undefined;
  const out: Record<string, string> = {};
  if (!prefix) return out;
  for await (const o of t.app.deps.objectStore.list(prefix)) {
    const got = await t.app.deps.objectStore.get(o.key);
    const chunks: Buffer[] = [];
    for await (const c of got.body) chunks.push(c as Buffer);
    out[o.key] = Buffer.concat(chunks).toString('base64');
  }
  return out;
}

type Creds = { key: string; token?: string };
const headersOf = (c: Creds): Record<string, string> => ({ 'x-hostbase-key': c.key, ...(c.token ? { 'x-hostbase-user-token': c.token } : {}) });
function appUpload(t: TestApp, c: Creds, folder: string, name: string, content: string) {
  const { body, contentType } = multipart([{ field: 'folder', value: folder }, { name, content }] as Part[]);
  return t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { ...headersOf(c), 'content-type': contentType }, payload: body });
}
const appList = (t: TestApp, c: Creds, folder: string) => t.app.inject({ method: 'GET', url: `/api/storage/v1/objects?folder=${folder}`, headers: headersOf(c) });
const appGet = (t: TestApp, c: Creds, id: string) => t.app.inject({ method: 'GET', url: `/api/storage/v1/objects/${id}`, headers: headersOf(c) });
const signIn = (t: TestApp, who: EndUser) => t.app.inject({ method: 'POST', url: '/api/auth/v1/signin', headers: { 'x-hostbase-key': keys.publishable }, payload: { email: who.email, password: who.password } });

beforeAll(async () => {
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'hostbase-sections-'));
  a = await buildTestApp({ PLATFORM_DOMAIN: 'a.test' }, { hostingRuntime: new EntryRuntime() });
  p = await createProject(a);
  const token = p.dev.token;
  const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
    const r = await res;
    expect({ status: r.statusCode, body: r.body }).toEqual({ status: 200, body: expect.any(String) });
    return r;
  };
  // projects: a rotated key (the old one revoked, not carried) and the active pair.
  await ok(a.post(`/project/${p.id}/rotate-key`, { key: 'secret' }, token));
  const k = (await a.post(`/project/${p.id}/api-keys`, {}, token)).json();
  keys = { publishable: k.publishable_key, secret: k.secret_key };
  // auth-users: settings and an end user.
  await ok(a.post(`/project/${p.id}/auth/settings`, { allowed_origins: ['https://shop.example'], block_common_passwords: false }, token));
  ann = await signUpEndUser(a, { authKey: keys.publishable });
  // storage: a public folder and an owner folder, a file in each (one uploaded by the end user).
  await ok(a.post(`/project/${p.id}/object-storage/rules/set`, { folder: 'pub', access: 'read', public: true }, token));
  await ok(a.post(`/project/${p.id}/object-storage/rules/set`, { folder: 'notes', access: 'owner' }, token));
  const pub = await ok(appUpload(a, { key: keys.secret }, 'pub', 'terms.txt', PUBLIC_FILE));
  const owned = await ok(appUpload(a, { key: keys.publishable, token: ann.accessToken }, 'notes', 'notes.txt', OWNED_FILE));
  files = { public: JSON.parse(pub.body).file.object_id, owned: JSON.parse(owned.body).file.object_id };
  // hosting: a Node site (its entry server.js), its variables and build settings.
  expect((await deploy(a, p, makeZip([{ name: 'server.js', data: SERVER_JS }, { name: 'package.json', data: '{"name":"shop"}' }]), 'Node')).statusCode).toBe(200);
  await ok(a.post(`/project/${p.id}/hosting/env/set`, { variables: [{ name: 'API_BASE', value: 'https://api.shop.example' }, { name: 'STRIPE_KEY', value: 'sk_live_1', secret: true }] }, token));
  await ok(a.post(`/project/${p.id}/hosting/build-settings/set`, { build_command: 'npm run build', output_directory: 'dist' }, token));
  // domains: a verified and a pending name (adding and verifying need a paid plan and DNS).
  await a.database.query("INSERT INTO site_domains (project_id, hostname, verified_at, cert_pem) VALUES ($1, 'www.shop.example', now(), 'CERT'), ($1, 'next.shop.example', NULL, NULL)", [p.id]);
  // smtp: a verified mail domain with a mailbox.
  await ok(a.post(`/project/${p.id}/smtp/add_domain`, { domain: 'shop.example' }, token));
  await a.database.query('UPDATE smtp_domains SET verified = true, verified_at = now() WHERE project_id = $1', [p.id]);
  await ok(a.post(`/project/${p.id}/smtp/add_account`, { email: 'alice', domain: 'shop.example', password: 'Abcdefg1!' }, token));
  // database: a table under the owner rule with the end user's row.
  await ok(a.post(`/project/${p.id}/database/create_table`, { name: 'todos', columns: [{ name: 'title', type: 'text' }, { name: 'meta', type: 'jsonb' }], access: 'owner' }, token));
  await ok(a.app.inject({ method: 'POST', url: '/api/db/v1/todos/insert', headers: headersOf({ key: keys.publishable, token: ann.accessToken }), payload: { rows: [{ title: 'buy milk', meta: { n: 1.5 } }] } }));

  for (const s of a.app.projects.lifecycles.ordered()) before.set(s.name, { rows: await carried(a, s), objects: await objects(a, s.name) });
  const archive = path.join(work, 'project.tar.gz');
  await exportProject(backupDeps(a.app.deps, a.app.projects.lifecycles, path.join(a.dataDir, 'backup')), p.id, archive);
  // The source goes first (PostgreSQL's roles are the server's: both test databases share them).
  expect((await a.post(`/project/${p.id}/delete`, { confirm: p.subdomain }, token)).statusCode).toBeLessThan(300);

  b = await buildTestApp({ PLATFORM_DOMAIN: 'a.test' }, { hostingRuntime: runtimeB });
  ownerB = await registerDeveloper(b);
  const r = await importProject(backupDeps(b.app.deps, b.app.projects.lifecycles, path.join(b.dataDir, 'backup')), archive, ownerB.email);
  expect(r.warnings).toEqual([]);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await runtimeB.close();
  await fsp.rm(work, { recursive: true, force: true });
});

test('every registered section has its round trip here', () => {
  expect(b.app.projects.lifecycles.ordered().map((s) => s.name)).toEqual([...before.keys()]);
  expect([...before.keys()].sort()).toEqual(['auth-users', 'database', 'domains', 'hosting', 'projects', 'smtp', 'storage']);
});

describe.each(['projects', 'auth-users', 'storage', 'hosting', 'domains', 'smtp', 'database'])('the %s section', (name) => {
  test('its rows (the columns it carries) and its objects come back equal', async () => {
    const section = b.app.projects.lifecycles.get(name)!;
    const was = before.get(name)!;
    expect(await carried(b, section)).toEqual(was.rows);
    // Each carried table had rows to compare (else the comparison proves nothing).
    for (const [table, rows] of Object.entries(was.rows)) expect({ table, some: rows.length > 0 }).toEqual({ table, some: true });
    expect(await objects(b, name)).toEqual(was.objects);
  });
});

test('projects: the new owner has it, with the same keys', async () => {
  expect((await b.post(`/project/${p.id}/api-keys`, {}, ownerB.token)).json()).toMatchObject({ publishable_key: keys.publishable, secret_key: keys.secret });
});

test('auth-users: the end user signs in with the same password', async () => {
  expect((await signIn(b, ann)).statusCode).toBe(200);
});

test('storage: the public file reads with the publishable key alone, the end user lists and uploads in their folder', async () => {
  const session = (await signIn(b, ann)).json();
  const publicFile = await appGet(b, { key: keys.publishable }, files.public);
  expect({ status: publicFile.statusCode, body: publicFile.body }).toEqual({ status: 200, body: PUBLIC_FILE });
  const listed = await appList(b, { key: keys.publishable, token: session.access_token }, 'notes');
  expect(listed.json().files.map((f: { object_id: string }) => f.object_id)).toEqual([files.owned]);
  const mine = await appGet(b, { key: keys.publishable, token: session.access_token }, files.owned);
  expect({ status: mine.statusCode, body: mine.body }).toEqual({ status: 200, body: OWNED_FILE });
  expect((await appUpload(b, { key: keys.publishable, token: session.access_token }, 'notes', 'more.txt', 'more')).statusCode).toBe(200);
  // Nobody else's: the owner rule came back with the folder.
  expect((await appGet(b, { key: keys.publishable }, files.owned)).statusCode).toBe(404);
});

test('hosting: the Node site starts from its own entry and serves', async () => {
  const res = await site(b, p, '/');
  expect({ status: res.statusCode, body: res.body }).toEqual({ status: 200, body: SERVER_JS });
  expect(runtimeB.started).toEqual([{ projectId: p.id, entry: 'server.js' }]);
});

test('database: the end user sees their row under the owner rule', async () => {
  const session = (await signIn(b, ann)).json();
  const rows = await b.app.inject({ method: 'POST', url: '/api/db/v1/todos/select', headers: headersOf({ key: keys.publishable, token: session.access_token }), payload: {} });
  expect(rows.json().rows).toMatchObject([{ title: 'buy milk', meta: { n: 1.5 }, owner_id: ann.id }]);
  const anonymous = await b.app.inject({ method: 'POST', url: '/api/db/v1/todos/select', headers: headersOf({ key: keys.publishable }), payload: {} });
  expect(anonymous.json().rows ?? []).toEqual([]);
});
