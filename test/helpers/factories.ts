// Factories for the API tests: an account, a project (with its keys and site host), an end user of
// a project, uploads and zips. Everything goes through the real API, so a factory that fails throws
// with the answer it got. The one copy of each helper: the area helpers re-export from here.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app';

let seq = 0;
const next = () => `${process.pid.toString(36)}${(++seq).toString(36)}${Date.now().toString(36).slice(-4)}`;

function ok(res: LightMyRequestResponse, what: string): LightMyRequestResponse {
  if (res.statusCode !== 200) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`);
  return res;
}

// ---- accounts (developers) ----

export interface Developer {
  id: string;
  name: string;
  email: string;
  password: string;
  token: string;
  /** The device token register answers (skips new-device checks at sign-in). */
  deviceToken?: string;
}

/**
 * Registers a developer through the API and returns its token and id. `ip`: the client address
 * (per-IP limits; tests of those limits give each sign-up its own).
 */
export async function registerDeveloper(t: Pick<TestApp, 'app'>, overrides: Partial<Pick<Developer, 'name' | 'email' | 'password'>> & { ip?: string } = {}): Promise<Developer> {
  const id = next();
  const name = overrides.name ?? `Dev ${id}`;
  const email = overrides.email ?? `dev${id}@example.com`;
  const password = overrides.password ?? 'correct horse battery';
  const post = (url: string, payload: object, token?: string) =>
    t.app.inject({ method: 'POST', url: '/api' + url, payload, remoteAddress: overrides.ip, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const res = ok(await post('/register', { name, email, password }), 'register');
  const token = res.json().token as string;
  const me = ok(await post('/account-details', {}, token), 'account-details');
  return { id: me.json().id, name, email, password, token, deviceToken: res.json().device_token };
}

/**
 * Puts a developer on a plan straight in the database. For test files about something other than
 * plan limits whose one developer makes more projects than Hobby allows (3); the limits themselves
 * are tested through the payment flow (test/billing).
 */
export async function onPlan(t: Pick<TestApp, 'database' | 'app'>, dev: Pick<Developer, 'id'>, plan: 'hobby' | 'pro' | 'enterprise'): Promise<void> {
  await t.database.query('UPDATE accounts SET plan = $1 WHERE id = $2', [plan, dev.id]);
  // A write from outside the platform: wait until every instance heard of it (platform/lookup-cache.ts).
  await t.app.deps.lookups.barrier();
}

/** Alias: an account is a developer. */
export const createAccount = registerDeveloper;

// ---- projects ----

export interface Project {
  dev: Developer;
  id: string;
  subdomain: string;
  /** The Host header of its site (`sub.platform:3000`). */
  host: string;
  /** Storage API key (x-api-key of /api/storage/v1). */
  bucketKey: string;
  /** End-user auth API key (x-api-key of /api/auth/v1). */
  authKey: string;
}

/** Creates a project for `dev` (a new developer when omitted) and reads its two keys. */
export async function createProject(t: TestApp, dev?: Developer, subdomain = `p${next()}`): Promise<Project> {
  const owner = dev ?? (await registerDeveloper(t));
  const res = ok(await t.post('/create-project', { projectName: `Project ${subdomain}`, subdomain }, owner.token), 'create-project');
  const id = res.json().project.id as string;
  const bucket = ok(await t.post(`/project/${id}/bucket-details`, undefined, owner.token), 'bucket-details');
  const auth = ok(await t.post(`/project/${id}/authentication-details`, {}, owner.token), 'authentication-details');
  return { dev: owner, id, subdomain, host: `${subdomain}.${t.config.platformDomain}:3000`, bucketKey: bucket.json().api_key, authKey: auth.json().api_key };
}

export async function developerWithProject(t: TestApp): Promise<{ dev: Developer; project: Project }> {
  const dev = await registerDeveloper(t);
  return { dev, project: await createProject(t, dev) };
}

// ---- end users (a project's own users) ----

export interface EndUser {
  id: string;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  deviceToken: string;
}

/** Signs an end user up to `project` through /api/auth/v1/signup. */
export async function signUpEndUser(
  t: TestApp,
  project: Pick<Project, 'authKey'>,
  opts: { email?: string; password?: string; ip?: string } = {},
): Promise<EndUser> {
  const email = opts.email ?? `user${next()}@example.com`;
  const password = opts.password ?? 'correct horse battery';
  const res = ok(
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/v1/signup',
      headers: { 'x-api-key': project.authKey },
      ...(opts.ip ? { remoteAddress: opts.ip } : {}),
      payload: { email, password },
    }),
    'signup',
  );
  const body = res.json();
  return { id: body.user.id, email, password, accessToken: body.access_token, refreshToken: body.refresh_token, deviceToken: body.device_token };
}

// ---- multipart bodies and uploads ----

export interface FilePart {
  name?: string;
  field?: string;
  type?: string;
  content: Buffer | string;
}
export type Part = FilePart | { field: string; value: string };

/** A multipart/form-data body built by hand, so tests control every byte and header. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = '----hostbase' + crypto.randomBytes(8).toString('hex');
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`));
    } else {
      const type = part.type ? `Content-Type: ${part.type}\r\n` : '';
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.field ?? 'file'}"; filename="${part.name ?? 'file.bin'}"\r\n${type}\r\n`));
      chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
      chunks.push(Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Console upload: POST /api/project/{id}/object-storage/upload with a bearer token. */
export function upload(t: TestApp, token: string, projectId: string, parts: Part[]): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/project/${projectId}/object-storage/upload`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
}

/**
 * Shares a file from the console (uploads are private) and returns its share URL's path on this
 * server: /s3/object-storage/{segment}/{object_id}.
 */
export async function shareFile(t: TestApp, token: string, projectId: string, objectId: string): Promise<string> {
  const res = ok(await t.app.inject({ method: 'POST', url: `/api/project/${projectId}/object-storage/share`, headers: { authorization: `Bearer ${token}` }, payload: { object_id: objectId } }), 'share');
  return new URL(res.json().file.path).pathname;
}

/** App upload: POST /api/storage/v1/objects with the bucket key. */
export function bucketUpload(t: TestApp, key: string, parts: Part[]): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { 'x-api-key': key, 'content-type': contentType }, payload: body });
}

// ---- zips ----

export interface ZipItem {
  name: string;
  data?: Buffer | string;
  /** Unix mode including the file type bits (0o120777 = symlink). Default: regular file 0o100644. */
  mode?: number;
  deflate?: boolean;
  /** Claim this uncompressed size in the headers instead of the real one. */
  lieSize?: number;
}

/** A real zip, or a malicious one (any name, any Unix file type, lying sizes) honest tools refuse to write. */
export function makeZip(items: ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const it of items) {
    const raw = Buffer.isBuffer(it.data) ? it.data : Buffer.from(it.data ?? '');
    const deflate = it.deflate ?? raw.length > 64;
    const body = deflate ? zlib.deflateRawSync(raw) : raw;
    const crc = zlib.crc32(raw);
    const name = Buffer.from(it.name, 'utf8');
    const size = it.lieSize ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // utf-8 names
    local.writeUInt16LE(deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    const mode = it.mode ?? (it.name.endsWith('/') ? 0o040755 : 0o100644);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A site deploy: POST /api/project/{id}/upload-and-extract-zip/ with the zip (or none) and a type. */
export function deploy(t: TestApp, p: Pick<Project, 'id' | 'host' | 'dev'>, zip: Buffer | undefined, type: string | undefined, token = p.dev.token): Promise<LightMyRequestResponse> {
  const parts: Part[] = [{ field: 'domain', value: p.host }, { field: 'projectId', value: p.id }];
  if (type !== undefined) parts.push({ field: 'type', value: type });
  if (zip) parts.push({ name: 'site.zip', type: 'application/zip', content: zip });
  const { body, contentType } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/project/${p.id}/upload-and-extract-zip/`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
}
