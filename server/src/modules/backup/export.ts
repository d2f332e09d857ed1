// A whole project into one archive (backup.format.ts): its rows read in one repeatable-read
// snapshot, then the bytes of its files and live deployment streamed from the object store (a
// manifest deployment's files zipped first: manifest-zip.ts).
// Secrets sealed with this platform's key (app keys, the DKIM key, the site's secret variables)
// are opened and written plain, so another platform can seal them with its own: the archive is as
// secret as the platform's database and is written 0600. Custom domains' certificates are not
// carried (the target obtains its own).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database, TxClient } from '../../db/client';
import type { SecretBox } from '../../platform/crypto';
import { isUuid } from '../../platform/ids';
import type { ObjectStore } from '../../platform/object-store/object-store';
import { describeTables, COLUMN_TYPES, quoteIdent, type DbAccess } from '../database';
import { siteKeyPrefix } from '../hosting';
import {
  ARCHIVE_FORMAT, ARCHIVE_VERSION, CARRIED_COLUMNS, type ArchiveData, type ArchivedTable, type Manifest, type Row,
} from './backup.format';
import { BackupError } from './backup.errors';
import { zipManifest } from './manifest-zip';
import { TarWriter } from './tar';

export interface BackupDeps {
  database: Database;
  secrets: SecretBox;
  store: ObjectStore;
  /** This platform's version (package.json), recorded in the manifest. */
  version: string;
  /** A private folder for staging (DATA_DIR/backup). */
  tmpRoot: string;
  /** PLATFORM_DOMAIN and MAIL_HOST: an imported custom domain may be neither nor under the platform's domain. */
  platformDomain?: string;
  mailHost?: string;
}

export { BackupError };

const PAGE_ROWS = 5000;

/** `SELECT to_jsonb(...)` of the carried columns: JSON the other side turns back into typed rows. */
export async function selectCarried(q: Pick<TxClient, 'query'>, table: keyof typeof CARRIED_COLUMNS, where: string, params: unknown[]): Promise<Row[]> {
  const cols = CARRIED_COLUMNS[table].map(quoteIdent).join(', ');
  const rows = await q.query<{ j: string }>(`SELECT to_jsonb(x)::text AS j FROM (SELECT ${cols} FROM ${quoteIdent(table)} WHERE ${where}) x`, params);
  return rows.map((r) => JSON.parse(r.j) as Row);
}

export interface ExportResult {
  manifest: Manifest;
  warnings: string[];
  bytes: number;
}

export async function exportProject(d: BackupDeps, projectId: string, outFile: string): Promise<ExportResult> {
  if (!isUuid(projectId)) throw new BackupError(`Not a project id: ${projectId}`);
  await fsp.mkdir(d.tmpRoot, { recursive: true, mode: 0o700 });
  const work = await fsp.mkdtemp(path.join(d.tmpRoot, 'export-'));
  const partial = `${outFile}.partial-${process.pid}`;
  try {
    const { data, tableFiles, objects } = await d.database.transaction((tx) => snapshot(tx, d, projectId, work));
    // A manifest deployment has no archive: its files are zipped now, before data.json is written,
    // so its row records what a zip deploy of the same files would (the archive and its files).
    for (const o of objects) {
      if (!o.manifest || !data.site) continue;
      o.zip = await zipManifest(d.store, projectId, o.manifest, work);
      data.site.deployment.stored_bytes = Number(data.site.deployment.size_bytes ?? 0) + o.zip.size;
    }
    const counts = {
      tables: data.database?.tables.length ?? 0,
      rows: data.database?.tables.reduce((n, t) => n + t.rows, 0) ?? 0,
      files: data.files.length,
      end_users: data.end_users.length,
      mailboxes: data.mail?.accounts.length ?? 0,
      deployments: data.site ? 1 : 0,
    };
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      created_at: new Date().toISOString(),
      source_version: d.version,
      project_id: projectId,
      counts,
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
      await addJson('data.json', data);
      for (const name of tableFiles) {
        const file = path.join(work, name);
        sums[name] = await tar.add(name, (await fsp.stat(file)).size, fs.createReadStream(file));
      }
      for (const { entry, key, zip } of objects) {
        const got = zip
          ? { size: zip.size, body: fs.createReadStream(zip.file) }
          : await d.store.get(key).catch((err: Error) => {
              throw new BackupError(`Could not read ${key} from the object store (${err.message}); export again`);
            });
        sums[entry] = await tar.add(entry, got.size, got.body);
      }
      const checksums = Buffer.from(JSON.stringify(sums, null, 1));
      await tar.add('checksums.json', checksums.length, checksums);
      await tar.finish();
    } catch (err) {
      out.destroy();
      throw err;
    }
    await fsp.rename(partial, outFile);
    return { manifest, warnings: data.warnings, bytes: (await fsp.stat(outFile)).size };
  } finally {
    await fsp.rm(partial, { force: true });
    await fsp.rm(work, { recursive: true, force: true });
  }
}

interface Snapshot {
  data: ArchiveData;
  tableFiles: string[];
  /** manifest: the deployment's files when it was made from a manifest (it has no archive then); zip: them zipped. */
  objects: { entry: string; key: string; manifest?: Record<string, string>; zip?: { file: string; size: number } }[];
}

async function snapshot(tx: TxClient, d: BackupDeps, projectId: string, work: string): Promise<Snapshot> {
  // One consistent view of every row, whatever changes meanwhile.
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  const [project] = await selectCarried(tx, 'projects', 'id = $1', [projectId]);
  if (!project) throw new BackupError(`No project with id ${projectId} on this platform`);
  const byProject: [string, unknown[]] = ['project_id = $1', [projectId]];

  const keyRows = await tx.query<{ kind: 'bucket' | 'authentication'; key_enc: string; created_at: string }>(
    "SELECT kind, key_enc, to_jsonb(created_at) #>> '{}' AS created_at FROM project_keys WHERE project_id = $1 AND revoked_at IS NULL ORDER BY created_at",
    [projectId],
  );
  const keys = keyRows.map((k) => ({ kind: k.kind, key: d.secrets.open(k.key_enc), created_at: k.created_at }));
  const [authSettings] = await selectCarried(tx, 'auth_settings', ...byProject);
  const endUsers = await selectCarried(tx, 'end_users', ...byProject);

  const objects: Snapshot['objects'] = [];
  const nextObject = (key: string, manifest?: Record<string, string>) => {
    const entry = `objects/${String(objects.length + 1).padStart(6, '0')}`;
    objects.push({ entry, key, ...(manifest ? { manifest } : {}) });
    return entry;
  };
  const keyOf = new Map(
    (await tx.query<{ object_id: string; storage_key: string }>('SELECT object_id, storage_key FROM storage_objects WHERE project_id = $1', [projectId])).map((r) => [
      r.object_id,
      r.storage_key,
    ]),
  );
  const files = (await selectCarried(tx, 'storage_objects', ...byProject)).map((f) => ({ ...f, entry: nextObject(keyOf.get(f.object_id as string)!) }));

  let site: ArchiveData['site'] = null;
  const [live] = await tx.query<{ id: string; updated_at: string }>(
    "SELECT d.id, to_jsonb(s.updated_at) #>> '{}' AS updated_at FROM sites s JOIN site_deployments d ON d.id = s.live_deployment_id WHERE s.project_id = $1 AND d.status = 'live'",
    [projectId],
  );
  if (live) {
    const [deployment] = await selectCarried(tx, 'site_deployments', 'id = $1', [live.id]);
    const [manifest] = await tx.query<{ files: string }>('SELECT files::text AS files FROM site_manifests WHERE deployment_id = $1', [live.id]);
    const files = manifest ? (JSON.parse(manifest.files) as Record<string, string>) : undefined;
    site = { deployment: { ...deployment, entry: nextObject(siteKeyPrefix(projectId, live.id) + 'archive.zip', files) }, updated_at: live.updated_at };
  }
  const siteEnv = (
    await tx.query<{ name: string; value: string; secret: boolean; updated_at: string }>(
      "SELECT name, value, secret, to_jsonb(updated_at) #>> '{}' AS updated_at FROM site_env WHERE project_id = $1 ORDER BY name",
      [projectId],
    )
  ).map((v) => ({ ...v, value: v.secret ? openVariable(d.secrets, projectId, v.name, v.value) : v.value }));
  const [buildSettings] = await selectCarried(tx, 'site_build_settings', ...byProject);
  const domains = await selectCarried(tx, 'site_domains', 'project_id = $1 ORDER BY created_at, hostname', [projectId]);

  let mail: ArchiveData['mail'] = null;
  const [domain] = await selectCarried(tx, 'smtp_domains', ...byProject);
  if (domain) {
    const [{ dkim_private_key: sealed }] = await tx.query<{ dkim_private_key: string }>('SELECT dkim_private_key FROM smtp_domains WHERE id = $1', [domain.id]);
    const accounts = await selectCarried(tx, 'mail_accounts', 'domain_id = $1', [domain.id]);
    mail = { domain: { ...domain, dkim_private_key: d.secrets.open(sealed) }, accounts };
  }

  const warnings: string[] = [];
  const tableFiles: string[] = [];
  let database: ArchiveData['database'] = null;
  const [names] = await tx.query<{ schema_name: string; owner_role: string }>('SELECT schema_name, owner_role FROM project_databases WHERE project_id = $1', [projectId]);
  if (names) {
    const records = new Map(
      (await tx.query<{ table_name: string; access: DbAccess; last_modified: string | null }>(
        "SELECT table_name, access, to_jsonb(last_modified) #>> '{}' AS last_modified FROM project_db_tables WHERE project_id = $1",
        [projectId],
      )).map((r) => [r.table_name, r]),
    );
    warnings.push(...(await uncarried(tx, names.schema_name)));
    // As the tables' owner: row-level security does not hide rows from it.
    await tx.query(`SET LOCAL ROLE ${quoteIdent(names.owner_role)}`);
    const tables: ArchivedTable[] = [];
    for (const info of await describeTables(tx, names.schema_name)) {
      for (const c of info.columns) {
        if (!(COLUMN_TYPES as readonly string[]).includes(c.type))
          throw new BackupError(`Table ${info.name}: column ${c.name} is of type ${c.type}, which a project export can't carry (it carries ${COLUMN_TYPES.join(', ')})`);
      }
      const entry = `tables/${String(tables.length + 1).padStart(4, '0')}.ndjson`;
      const rows = await dumpRows(tx, names.schema_name, info.name, info.columns.map((c) => c.name), info.primaryKey, path.join(work, entry));
      const record = records.get(info.name);
      tables.push({ name: info.name, access: record?.access ?? 'none', last_modified: record?.last_modified ?? null, columns: info.columns, primary_key: info.primaryKey, rows, entry });
      tableFiles.push(entry);
    }
    await tx.query('RESET ROLE');
    database = { tables };
  }

  return {
    data: {
      project, keys, auth_settings: authSettings ?? null, end_users: endUsers, files, site,
      site_env: siteEnv, build_settings: buildSettings ?? null, domains, mail, database, warnings,
    },
    tableFiles,
    objects,
  };
}

/** A secret variable's value: sealed as [project, name, value] (site-env.ts), so a moved row does not open. */
function openVariable(secrets: SecretBox, projectId: string, name: string, sealed: string): string {
  const [p, n, v] = JSON.parse(secrets.open(sealed)) as [string, string, string];
  if (p !== projectId || n !== name) throw new BackupError(`The site's secret ${name} is sealed for another site: not exported`);
  return v;
}

/** Each row as a JSON array of its columns' text forms (exact for numeric, jsonb, timestamps). */
async function dumpRows(tx: TxClient, schema: string, table: string, columns: string[], primaryKey: string[], file: string): Promise<number> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  const select = `SELECT ARRAY[${columns.map((c) => `${quoteIdent(c)}::text`).join(', ')}] AS r FROM ${quoteIdent(schema)}.${quoteIdent(table)}
    ORDER BY ${(primaryKey.length ? primaryKey : columns).map(quoteIdent).join(', ')} LIMIT ${PAGE_ROWS} OFFSET $1`;
  let count = 0;
  for (;;) {
    const page = await tx.query<{ r: (string | null)[] }>(select, [count]);
    for (const { r } of page) out.write(JSON.stringify(r) + '\n');
    count += page.length;
    if (page.length < PAGE_ROWS) break;
  }
  out.end();
  await done;
  return count;
}

/** What only the SQL box makes and this format does not carry: named so the developer knows. */
async function uncarried(tx: TxClient, schema: string): Promise<string[]> {
  const found = await tx.query<{ what: string }>(
    `SELECT 'view ' || c.relname AS what FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('v', 'm', 'f')
     UNION ALL
     SELECT 'index ' || i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
      WHERE n.nspname = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)
     UNION ALL
     SELECT 'constraint ' || k.conname FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace
      WHERE n.nspname = $1 AND (k.contype IN ('c', 'x', 't') OR (k.contype IN ('u', 'f') AND array_length(k.conkey, 1) > 1))
     UNION ALL
     SELECT 'function ' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1
     UNION ALL
     SELECT 'trigger ' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND NOT t.tgisinternal AND t.tgname NOT IN ('hb_changes', 'hb_touch')
     UNION ALL
     SELECT 'type ' || t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype IN ('e', 'd', 'r', 'm')`,
    [schema],
  );
  return found.map((f) => `Not carried (made with the SQL box): ${f.what}`);
}
