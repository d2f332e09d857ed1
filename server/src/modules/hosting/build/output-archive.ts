// A built folder as a zip file (the deployment's archive, so that other instances can serve or
// run what this one built), written by the platform's one zip writer (platform/zip-folder.ts): streamed
// to disk, deflate level 1 (builds are mostly already compressed assets and minified code: speed
// over the last percent). A deployment holds regular files only, so symbolic links
// (node_modules/.bin, a venv's lib64) are left out and counted; nothing is ever followed. A
// deployment holds at most 65,535 files and 4 GiB of zip (what the extractor takes on every
// instance): past that the build is refused with the figure, never written as a partial zip.
import { regularFiles, zipFolder, ZipLimitError, type ZipFolderResult } from '../../../platform/zip-folder';
import { BuildFailedError } from './build-runner';

export { regularFiles };

/** A deployment's ceiling on entries (zip32's). */
export const MAX_ENTRIES = 0xffff;
const MAX_BYTES = 0xffffffff;

export type ArchiveResult = ZipFolderResult;

export async function writeArchive(dir: string, dest: string, maxEntries = MAX_ENTRIES): Promise<ArchiveResult> {
  try {
    return await zipFolder(dir, dest, { maxEntries, maxBytes: MAX_BYTES, level: 1 });
  } catch (err) {
    if (err instanceof ZipLimitError && err.limit === 'entries') throw new BuildFailedError(`The build output has more than ${maxEntries} files; a deployment holds at most ${maxEntries}.`);
    if (err instanceof ZipLimitError) throw new BuildFailedError('The build output is larger than 4 GiB compressed; a deployment holds at most 4 GiB.');
    throw err;
  }
}
