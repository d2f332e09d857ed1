// A manifest deployment (instant-deploy.ts) has no archive.zip: its files are the project's
// content-addressed blobs, listed by its manifest. An export lays them out from the object store
// (as SiteFiles.ensureLocal would, without needing a hosting instance: the CLI exports too) and
// zips the folder (platform/zip-folder.ts, the platform's one zip writer), so the archive carries one
// zip for the live deployment whatever its kind and the target restores an ordinary archive
// deployment. Each blob is checked against its digest: a damaged stored copy fails the export
// instead of being carried.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { zipFolder } from '../../platform/zip-folder';
import { pathProblem, blobKey } from '../hosting';
import { BackupError } from './backup.errors';

const DIGEST = /^[0-9a-f]{64}$/;

/** The deployment's files as <work>/site.zip; returns its path and size. */
export async function zipManifest(store: ObjectStore, projectId: string, files: Record<string, string>, work: string): Promise<{ file: string; size: number }> {
  const dir = path.join(work, 'site-files');
  const root = path.resolve(dir);
  await fsp.mkdir(dir, { recursive: true });
  // One download per digest: the other paths with the same bytes are copies of the first.
  const fetched = new Map<string, string>();
  for (const [rel, digest] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const problem = pathProblem(rel);
    if (problem || !DIGEST.test(digest)) throw new BackupError(`The live deployment's manifest lists ${problem ?? `a malformed digest for ${rel}`}`);
    const target = path.resolve(root, rel);
    if (!target.startsWith(root + path.sep)) throw new BackupError(`The live deployment's manifest lists an unsafe path ${JSON.stringify(rel)}`);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const first = fetched.get(digest);
    if (first) {
      await fsp.copyFile(first, target, fs.constants.COPYFILE_EXCL);
      continue;
    }
    const got = await store.get(blobKey(projectId, digest)).catch((err: Error) => {
      throw new BackupError(`Could not read the live deployment's file ${rel} from the object store (${err.message}); export again`);
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
    if (hash.digest('hex') !== digest) throw new BackupError(`The stored copy of the live deployment's file ${rel} does not match its digest: not exported`);
    fetched.set(digest, target);
  }
  const file = path.join(work, 'site.zip');
  // Level 1, as a built site's archive: mostly compressed assets and minified code.
  await zipFolder(dir, file, { level: 1 });
  await fsp.rm(dir, { recursive: true, force: true });
  return { file, size: (await fsp.stat(file)).size };
}
