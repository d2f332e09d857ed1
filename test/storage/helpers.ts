// Storage test helpers: what is stored (rows, files). Accounts, projects,
// multipart bodies and uploads come from ../helpers/factories (re-exported here).
import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from '../helpers/app';
import type { Part } from '../helpers/factories';

export { bucketUpload, createProject, developerWithProject, multipart, shareFile, upload, type FilePart, type Part, type Project } from '../helpers/factories';
export interface Form {
  /** Fields, in order; a FilePart is a file. */
  parts: Part[];
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
