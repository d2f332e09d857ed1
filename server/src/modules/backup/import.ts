// An archive of exportProject back into a platform, all or nothing: the archive is unpacked and
// every entry checked against its checksum (and its manifest's format version) before anything is
// written; then one transaction, in which every lifecycle section refuses what clashes with this
// platform and writes its rows, and the objects the sections named are stored before it commits.
// When anything fails the transaction rolls back and the objects stored are deleted again.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TxClient } from '../../db/client';
import { DEFAULT_JSON_LIMITS, parseBoundedJson } from '../../platform/json-limits';
import { LifecycleError, type ArchiveRow, type SectionReader } from '../projects';
import { BackupError } from './backup.errors';
import type { BackupDeps } from './backup.deps';
import { ENTRY_NAMES, OWN_ENTRY, checkManifest, type Manifest } from './backup.format';
import { sectionsOfV1 } from './format-v1';
import { ArchiveError, extractTar } from './tar';

/** Unpacked, an archive may not pass this (a guard against a gzip bomb filling the disk). */
const MAX_UNPACKED_BYTES = 2 ** 40;
/** An archive's JSON nests no deeper than a request may (its size is the archive's own limit). */
const ARCHIVE_JSON_LIMITS = { maxDepth: DEFAULT_JSON_LIMITS.maxDepth, maxBytes: Number.MAX_SAFE_INTEGER };

export interface ImportResult {
  projectId: string;
  manifest: Manifest;
  warnings: string[];
}

interface Unpacked {
  manifest: Manifest;
  /** Each section's part, by name. */
  sections: Map<string, Record<string, unknown>>;
  /** The members the sections' rows may name (objects/…, tables/… in version 1). */
  members: Set<string>;
  /** What the export could not carry. */
  warnings: string[];
}

export async function importProject(d: BackupDeps, archiveFile: string, ownerEmail: string): Promise<ImportResult> {
  await fsp.mkdir(d.tmpRoot, { recursive: true, mode: 0o700 });
  const work = await fsp.mkdtemp(path.join(d.tmpRoot, 'import-'));
  try {
    const archive = await unpack(archiveFile, work);
    const sections = d.lifecycles.ordered();
    const unknown = [...archive.sections.keys()].filter((name) => !sections.some((s) => s.name === name));
    if (unknown.length)
      throw new BackupError(`Not imported: the archive holds parts this platform does not know (${unknown.join(', ')}), written by a newer Hostbase (${archive.manifest.source_version}). Upgrade this platform and import again.`);
    const ownerId = await d.ownerByEmail(ownerEmail);
    if (!ownerId) throw new BackupError(`No account with the e-mail ${ownerEmail} on this platform: register it first, then import`);
    const projectId = archive.manifest.project_id;
    const warnings = [...archive.warnings];
    const puts: { file: string; key: string; contentType: string }[] = [];
    const stored: string[] = [];
    try {
      await d.database.transaction(async (tx) => {
        for (const s of sections) await s.import(reader(archive, work, s.name, { tx, projectId, ownerId, puts, warnings }));
        for (const p of puts) {
          const { size } = await fsp.stat(p.file);
          await d.store.put(p.key, size ? fs.createReadStream(p.file) : Readable.from([]), { size, contentType: p.contentType });
          stored.push(p.key);
        }
      });
    } catch (err) {
      for (const key of stored) await d.store.delete(key).catch(() => undefined);
      throw translate(err);
    }
    return { projectId, manifest: archive.manifest, warnings };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

const isRow = (v: unknown): v is ArchiveRow => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A section's part of the archive, as its import reads it. */
function reader(
  archive: Unpacked,
  work: string,
  name: string,
  ctx: { tx: TxClient; projectId: string; ownerId: string; puts: { file: string; key: string; contentType: string }[]; warnings: string[] },
): SectionReader {
  const part = archive.sections.get(name) ?? {};
  const where = archive.manifest.version === 1 ? 'data.json' : `sections/${name}.json`;
  const file = (member: unknown) => {
    if (typeof member !== 'string' || !archive.members.has(member)) throw new LifecycleError(`${where} names a member the archive does not hold (${JSON.stringify(member)})`);
    return path.join(work, member);
  };
  return {
    tx: ctx.tx,
    projectId: ctx.projectId,
    ownerId: ctx.ownerId,
    rows: (key) => {
      const v = part[key];
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v) || !v.every(isRow)) throw new LifecycleError(`${where}: ${key} is not a list of rows`);
      return v;
    },
    row: (key) => {
      const v = part[key];
      if (v === undefined || v === null) return null;
      if (!isRow(v)) throw new LifecycleError(`${where}: ${key} is not a row`);
      return v;
    },
    file,
    storeObject: (member, key, contentType) => void ctx.puts.push({ file: file(member), key, contentType }),
    warn: (message) => void ctx.warnings.push(message),
  };
}

async function unpack(archiveFile: string, work: string): Promise<Unpacked> {
  let manifest: Manifest | undefined;
  let entries;
  try {
    await fsp.access(archiveFile, fs.constants.R_OK);
  } catch {
    throw new BackupError(`Cannot read ${archiveFile}`);
  }
  try {
    entries = await extractTar(
      fs.createReadStream(archiveFile),
      work,
      (name) => {
        // The manifest comes first: a newer format is named as such before its other entries are judged.
        if (name !== 'manifest.json' && !manifest) throw new ArchiveError('the archive does not start with its manifest.json');
        return ENTRY_NAMES[manifest?.version ?? 1].test(name);
      },
      MAX_UNPACKED_BYTES,
      async (entry) => {
        if (entry.name === 'manifest.json') manifest = checkManifest(await readJson(work, 'manifest.json'));
      },
    );
  } catch (err) {
    if (err instanceof ArchiveError) throw new BackupError(`Not imported: ${err.message}`);
    throw err;
  }
  if (!manifest) throw new BackupError('Not imported: the archive has no manifest.json');
  const sums = (await readJson(work, 'checksums.json').catch(() => undefined)) as Record<string, string> | undefined;
  if (!sums || typeof sums !== 'object') throw new BackupError('Not imported: the archive has no checksums.json (truncated or not written by an export)');
  for (const e of entries) {
    if (e.name === 'checksums.json') continue;
    if (sums[e.name] !== e.sha256) throw new BackupError(`Not imported: the archive is corrupt (${e.name} does not match its checksum)`);
  }
  const names = new Set(entries.map((e) => e.name));
  for (const name of Object.keys(sums)) if (!names.has(name)) throw new BackupError(`Not imported: the archive is missing ${name}`);
  const members = new Set([...names].filter((n) => !OWN_ENTRY.test(n)));
  if (manifest.version === 1) {
    const v1 = sectionsOfV1(await readJson(work, 'data.json'));
    if ((v1.sections.get('projects')!.project as ArchiveRow).id !== manifest.project_id) throw new BackupError('Not imported: data.json and manifest.json name different projects');
    return { manifest, members, ...v1 };
  }
  const sections = new Map<string, Record<string, unknown>>();
  for (const name of manifest.sections!) {
    const entry = `sections/${name}.json`;
    if (!names.has(entry)) throw new BackupError(`Not imported: the archive is missing ${entry}`);
    const part = await readJson(work, entry);
    if (!isRow(part)) throw new BackupError(`Not imported: ${entry} is not a section`);
    sections.set(name, part);
  }
  return { manifest, sections, members, warnings: manifest.warnings ?? [] };
}

async function readJson(work: string, name: string): Promise<unknown> {
  try {
    return parseBoundedJson(await fsp.readFile(path.join(work, name), 'utf8'), name, ARCHIVE_JSON_LIMITS);
  } catch (err) {
    throw new BackupError(`Not imported: ${name} is not valid JSON (${(err as Error).message})`);
  }
}

/** A section's refusal, and PostgreSQL's in words (a clash found only by the transaction, such as an end user id). */
function translate(err: unknown): unknown {
  if (err instanceof BackupError) return err;
  if (err instanceof LifecycleError) return new BackupError(`Not imported: ${err.message}`);
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e.code === '23505') return new BackupError(`Not imported: a row of the archive clashes with one on this platform (${e.constraint ?? e.message}). Nothing was written.`);
  if (e.code && /^(22|23|42)/.test(e.code)) return new BackupError(`Not imported: the archive's rows were refused by the database (${e.message}). Nothing was written.`);
  if ((err as { statusCode?: number }).statusCode === 400) return new BackupError(`Not imported: ${(err as Error).message}`);
  return err;
}
