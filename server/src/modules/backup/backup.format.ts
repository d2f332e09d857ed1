// What a project archive holds (format version 2), a gzip'd tar (tar.ts):
//   manifest.json          { format, version, created_at, source_version, project_id, sections, counts, warnings }: first
//   sections/<name>.json   one lifecycle section's part: its module's rows as JSON (the projects face's
//                          ProjectLifecycle; each module's *.lifecycle.ts says what it carries)
//   objects/NNNNNN         a member the sections' rows name: a stored file's bytes, the live
//                          deployment's zip, a table's rows (one JSON array per line)
//   checksums.json         { "<entry>": "<sha256>" } for every entry above: written last, checked first
// Version 1 (every module's rows in one data.json, tables/NNNN.ndjson) is still read (format-v1.ts).
// Secrets are in plain text (keys, the DKIM key, the site's secrets): the archive is written 0600.
import { isUuid } from '../../platform/ids';
import { BackupError } from './backup.errors';

export const ARCHIVE_FORMAT = 'hostbase-project';
export const ARCHIVE_VERSION = 2;

/** The entries each version's archives hold; nothing else is extracted. */
export const ENTRY_NAMES: Readonly<Record<number, RegExp>> = {
  1: /^(manifest\.json|data\.json|checksums\.json|tables\/\d{4}\.ndjson|objects\/\d{6})$/,
  2: /^(manifest\.json|checksums\.json|sections\/[a-z][a-z0-9-]*\.json|objects\/\d{6})$/,
};

/** The entries that are the archive's own, not members its rows name. */
export const OWN_ENTRY = /^(manifest\.json|checksums\.json|data\.json|sections\/.*)$/;

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  created_at: string;
  /** The exporting platform's version (package.json). */
  source_version: string;
  project_id: string;
  /** Version 2: the sections written, in order (sections/<name>.json each). */
  sections?: string[];
  /** What the sections counted: tables, rows, files, end_users, mailboxes, deployments. */
  counts: Record<string, number>;
  /** Version 2: what the export could not carry (made with the SQL box). */
  warnings?: string[];
}

/** Refuses what this version can't read, with what to do. */
export function checkManifest(value: unknown): Manifest {
  const m = value as Partial<Manifest> | null;
  if (!m || typeof m !== 'object' || m.format !== ARCHIVE_FORMAT) throw new BackupError('This is not a Hostbase project archive (its manifest.json names no hostbase-project format)');
  if (!Number.isInteger(m.version) || m.version! < 1) throw new BackupError('The archive is corrupt: its manifest has no valid format version');
  if (m.version! > ARCHIVE_VERSION)
    throw new BackupError(
      `The archive has format version ${m.version}, written by a newer Hostbase (${m.source_version ?? 'unknown version'}); this one reads format version ${ARCHIVE_VERSION} at most. Upgrade this platform and import again.`,
    );
  if (!isUuid(String(m.project_id))) throw new BackupError('The archive is corrupt: its manifest names no project id');
  if (m.version! >= 2 && (!Array.isArray(m.sections) || !m.sections.every((s) => typeof s === 'string' && ENTRY_NAMES[2].test(`sections/${s}.json`))))
    throw new BackupError('The archive is corrupt: its manifest names no valid sections');
  if (typeof m.counts !== 'object' || m.counts === null) throw new BackupError('The archive is corrupt: its manifest has no counts');
  return m as Manifest;
}
