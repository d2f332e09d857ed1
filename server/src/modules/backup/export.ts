// A whole project into one archive (backup.format.ts): every lifecycle section writes its part
// in one repeatable-read snapshot (its rows as JSON, the members it names: objects of the store, or
// files it writes into the staging folder), then the steps that need no snapshot run (a manifest
// deployment zipped), and the archive is written under a temporary name: the manifest, each
// section's JSON, the members (objects streamed from the store), the checksums; renamed when
// complete. The archive is written 0600: it is as secret as the platform's database.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TxClient } from '../../db/client';
import { isUuid } from '../../platform/ids';
import { LifecycleError, type SectionWriter } from '../projects';
import { BackupError } from './backup.errors';
import type { BackupDeps } from './backup.deps';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, type Manifest } from './backup.format';
import { TarWriter } from './tar';

export interface ExportResult {
  manifest: Manifest;
  warnings: string[];
  bytes: number;
}

/** What the sections wrote, gathered for the archive. */
class Parts {
  readonly json = new Map<string, Record<string, unknown>>();
  /** objects/NNNNNN in order: from the object store (key) or the staging folder (file). */
  readonly members: { name: string; key?: string; file?: string }[] = [];
  readonly later: (() => Promise<void>)[] = [];
  readonly counts: Record<string, number> = {};
  readonly warnings: string[] = [];

  constructor(private readonly work: string) {}

  private member(source: { key?: string; file?: string }): string {
    const name = `objects/${String(this.members.length + 1).padStart(6, '0')}`;
    this.members.push({ name, ...source });
    return name;
  }

  writer(section: string, tx: TxClient, projectId: string): SectionWriter {
    const json: Record<string, unknown> = {};
    this.json.set(section, json);
    return {
      tx,
      projectId,
      put: (key, value) => void (json[key] = value),
      object: (key) => this.member({ key }),
      file: () => {
        const file = path.join(this.work, `objects-${this.members.length + 1}`);
        return { member: this.member({ file }), path: file };
      },
      afterSnapshot: (step) => void this.later.push(step),
      count: (what, n) => void (this.counts[what] = (this.counts[what] ?? 0) + n),
      warn: (message) => void this.warnings.push(message),
    };
  }
}

export async function exportProject(d: BackupDeps, projectId: string, outFile: string): Promise<ExportResult> {
  if (!isUuid(projectId)) throw new BackupError(`Not a project id: ${projectId}`);
  await fsp.mkdir(d.tmpRoot, { recursive: true, mode: 0o700 });
  const work = await fsp.mkdtemp(path.join(d.tmpRoot, 'export-'));
  const partial = `${outFile}.partial-${process.pid}`;
  try {
    const parts = new Parts(work);
    const sections = d.lifecycles.ordered();
    try {
      await d.database.transaction(async (tx) => {
        // One consistent view of every row, whatever changes meanwhile.
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        for (const s of sections) await s.export(parts.writer(s.name, tx, projectId));
      });
      for (const step of parts.later) await step();
    } catch (err) {
      if (err instanceof LifecycleError) throw new BackupError(err.message);
      throw err;
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created_at: new Date().toISOString(),
      source_version: d.version,
      project_id: projectId,
      sections: sections.map((s) => s.name),
      counts: parts.counts,
      warnings: parts.warnings,
    };
    const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    const tar = new TarWriter(out);
    const sums: Record<string, string> = {};
    const addJson = async (name: string, value: unknown) => {
      const bytes = Buffer.from(JSON.stringify(value, null, 1));
      sums[name] = await tar.add(name, bytes.length, bytes);
    };
    try {
      await addJson('manifest.json', manifest);
      for (const [name, json] of parts.json) await addJson(`sections/${name}.json`, json);
      for (const { name, key, file } of parts.members) {
        const got = file
          ? { size: (await fsp.stat(file)).size, body: fs.createReadStream(file) }
          : await d.store.get(key!).catch((err: Error) => {
              throw new BackupError(`Could not read ${key} from the object store (${err.message}); export again`);
            });
        sums[name] = await tar.add(name, got.size, got.body);
      }
      const checksums = Buffer.from(JSON.stringify(sums, null, 1));
      await tar.add('checksums.json', checksums.length, checksums);
      await tar.finish();
    } catch (err) {
      out.destroy();
      throw err;
    }
    await fsp.rename(partial, outFile);
    return { manifest, warnings: parts.warnings, bytes: (await fsp.stat(outFile)).size };
  } finally {
    await fsp.rm(partial, { force: true });
    await fsp.rm(work, { recursive: true, force: true });
  }
}
