// Set-up shared by the storage tests: a developer with a project, multipart bodies built by hand
// (so tests control every byte and header), and uploads through the real API.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { registerDeveloper, type Developer, type TestApp } from '../helpers/app';

export interface FilePart {
  name?: string;
  field?: string;
  type?: string;
  content: Buffer | string;
}

export interface Form {
  /** Fields, in order; a FilePart is a file. */
  parts: (FilePart | { field: string; value: string })[];
}

export function multipart(parts: Form['parts']): { body: Buffer; contentType: string } {
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

export interface Project {
  id: string;
  subdomain: string;
  bucketKey: string;
}

let n = 0;
export async function createProject(t: TestApp, dev: Developer, subdomain = `proj-${process.pid}-${++n}-${Date.now() % 100000}`): Promise<Project> {
  const res = await t.post('/create-project', { projectName: `Project ${subdomain}`, subdomain }, dev.token);
  if (res.statusCode !== 200) throw new Error(`create-project failed: ${res.statusCode} ${res.body}`);
  const id = res.json().project.id as string;
  const bucket = await t.post(`/project/${id}/bucket-details`, undefined, dev.token);
  return { id, subdomain, bucketKey: bucket.json().api_key };
}

export async function developerWithProject(t: TestApp): Promise<{ dev: Developer; project: Project }> {
  const dev = await registerDeveloper(t);
  return { dev, project: await createProject(t, dev) };
}

/** Console upload: POST /api/project/{id}/object-storage/upload with a bearer token. */
export function upload(t: TestApp, token: string, projectId: string, parts: Form['parts']): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/project/${projectId}/object-storage/upload`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
}

/** App upload: POST /api/storage/v1/objects with the bucket key. */
export function bucketUpload(t: TestApp, key: string, parts: Form['parts']): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipart(parts);
  return t.app.inject({ method: 'POST', url: '/api/storage/v1/objects', headers: { 'x-api-key': key, 'content-type': contentType }, payload: body });
}

/** The share URL of an uploaded file as a path on this server (PUBLIC_URL stripped). */
export function sharePath(file: { path: string }): string {
  return new URL(file.path).pathname;
}

export async function rowCount(t: TestApp, projectId?: string): Promise<number> {
  const rows = await t.database.query<{ n: string }>(
    projectId ? 'SELECT count(*) AS n FROM storage_objects WHERE project_id = $1' : 'SELECT count(*) AS n FROM storage_objects',
    projectId ? [projectId] : [],
  );
  return Number(rows[0]!.n);
}

/** Every file under the fs store (objects, sidecars and temp files): proof that nothing was left. */
export function storedFiles(t: TestApp): string[] {
  const root = path.join(t.dataDir, 'storage');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}
