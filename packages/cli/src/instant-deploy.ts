// `hostbase deploy` of a folder that needs no build: an instant redeploy. The folder goes as a
// manifest of SHA-256 digests; the platform answers which files it does not have yet (files are
// content-addressed per project, shared between its deployments), only those are uploaded, and
// finish makes the deployment live. A 1-file change to a big site uploads one file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { ZipEntry } from './zip.js';

/** Whether the server builds this folder (source code): those go as a zip, the build needs every file. */
export function needsBuild(names: string[]): boolean {
  return names.some((n) => n === 'package.json' || n === 'composer.json' || n === 'requirements.txt');
}

export interface ManifestApi {
  /** POST a JSON body to an API path; rejects with the server's message. */
  post<T>(path: string, body: unknown): Promise<T>;
  /** POST a multipart form to an API path. */
  upload<T>(path: string, form: FormData): Promise<T>;
}

/** Files per upload request, and bytes: the server takes at most 1000 file parts per request. */
const BATCH_FILES = 500;
const BATCH_BYTES = 32 * 1024 * 1024;

export async function manifestDeploy(
  api: ManifestApi,
  projectId: string,
  type: string,
  entries: ZipEntry[],
  say: (line: string) => void,
): Promise<{ message: string; deployment: { id: string; status: string } }> {
  const files: Record<string, string> = {};
  const byDigest = new Map<string, ZipEntry>();
  for (const e of entries) {
    const digest = crypto.createHash('sha256').update(fs.readFileSync(e.file)).digest('hex');
    files[e.name] = digest;
    byDigest.set(digest, e);
  }
  const started = await api.post<{ deployment_id: string; missing: string[] }>(`/project/${projectId}/deployments/manifest`, { type, files });
  const id = started.deployment_id;
  const missing = started.missing;
  say(`${entries.length} file${entries.length === 1 ? '' : 's'}; ${missing.length ? `uploading ${missing.length} the platform does not have yet` : 'all already on the platform: nothing to upload'}`);
  let form = new FormData();
  let inForm = 0;
  let bytes = 0;
  const send = async () => {
    if (!inForm) return;
    await api.upload(`/project/${projectId}/deployments/${id}/files`, form);
    form = new FormData();
    inForm = 0;
    bytes = 0;
  };
  for (const digest of missing) {
    const entry = byDigest.get(digest);
    if (!entry) throw new Error(`The platform asked for ${digest}, which is not in the folder.`);
    const data = fs.readFileSync(entry.file);
    if (inForm && (inForm >= BATCH_FILES || bytes + data.length > BATCH_BYTES)) await send();
    form.append('file', new Blob([data as Uint8Array<ArrayBuffer>]), digest);
    inForm++;
    bytes += data.length;
  }
  await send();
  return api.post(`/project/${projectId}/deployments/${id}/finish`, {});
}
