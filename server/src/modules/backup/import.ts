// An archive of exportProject back into a platform, all or nothing: the archive is unpacked and
// every entry checked against its checksum (and its manifest's format version) before anything is
// written; the files go to the object store first, then every row in one transaction; when
// anything fails the transaction rolls back and the files written are deleted again.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { TxClient } from '../../db/client';
import { normalizeEmail } from '../sign-in';
import { isUuid } from '../../platform/ids';
import { COLUMN_TYPES, type TableInfo, applyAccess, createTableSql, type ColumnSpec, checkIdentifier, quoteIdent, namesFor, attachTriggers } from '../database';
import { normalizeHostname } from '../domains';
import { envNameProblem, siteKeyPrefix } from '../hosting';
import { objectKey } from '../storage';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, CARRIED_COLUMNS, ENTRY_NAME, type ArchiveData, type ArchivedTable, type Manifest, type Row } from './backup.format';
import { BackupError } from './backup.errors';
import type { BackupDeps } from './export';
import { ArchiveError, extractTar } from './tar';
import { DEFAULT_JSON_LIMITS, parseBoundedJson } from '../../platform/json-limits';

/** Unpacked, an archive may not pass this (a guard against a gzip bomb filling the disk). */
const MAX_UNPACKED_BYTES = 2 ** 40;
/** An archive's JSON nests no deeper than a request may (its size is the archive's own limit). */
const ARCHIVE_JSON_LIMITS = { maxDepth: DEFAULT_JSON_LIMITS.maxDepth, maxBytes: Number.MAX_SAFE_INTEGER };
const INSERT_PARAMS = 10_000;
const ACCESS = new Set(['none', 'read', 'signed_in', 'owner']);

export interface ImportResult {
  projectId: string;
  manifest: Manifest;
  warnings: string[];
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
  return m as Manifest;
}

export async function importProject(d: BackupDeps, archiveFile: string, ownerEmail: string): Promise<ImportResult> {
  await fsp.mkdir(d.tmpRoot, { recursive: true, mode: 0o700 });
  const work = await fsp.mkdtemp(path.join(d.tmpRoot, 'import-'));
  try {
    const { manifest, data } = await unpack(archiveFile, work);
    const projectId = manifest.project_id;
    const ownerId = await preflight(d, data, projectId, ownerEmail);
    const written: string[] = [];
    try {
      for (const f of data.files) {
        const key = objectKey(projectId, uuid(f.object_id, 'files/object_id'));
        await putEntry(d, work, String(f.entry), key, String(f.object_type));
        written.push(key);
      }
      if (data.site) {
        const key = siteKeyPrefix(projectId, uuid(data.site.deployment.id, 'site/deployment/id')) + 'archive.zip';
        await putEntry(d, work, String(data.site.deployment.entry), key, 'application/zip');
        written.push(key);
      }
      const warnings = await d.database.transaction((tx) => writeRows(tx, d, work, data, projectId, ownerId));
      return { projectId, manifest, warnings: [...(data.warnings ?? []), ...warnings] };
    } catch (err) {
      for (const key of written) await d.store.delete(key).catch(() => undefined);
      throw translate(err);
    }
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

async function unpack(archiveFile: string, work: string): Promise<{ manifest: Manifest; data: ArchiveData }> {
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
        return ENTRY_NAME.test(name);
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
  const data = (await readJson(work, 'data.json')) as ArchiveData;
  if (!data?.project || !Array.isArray(data.files) || !Array.isArray(data.end_users) || !Array.isArray(data.keys)) throw new BackupError('Not imported: data.json is not a project');
  if (data.project.id !== manifest.project_id) throw new BackupError('Not imported: data.json and manifest.json name different projects');
  // Fields newer than the first format: absent in older archives (nothing to restore), arrays when present.
  if ((data.site_env !== undefined && !Array.isArray(data.site_env)) || (data.domains !== undefined && !Array.isArray(data.domains)))
    throw new BackupError('Not imported: data.json is not a project');
  const entryOk = (entry: unknown) => typeof entry === 'string' && names.has(entry);
  if (!data.files.every((f) => entryOk(f.entry)) || (data.site && !entryOk(data.site.deployment.entry)) || (data.database && !data.database.tables.every((t) => entryOk(t.entry))))
    throw new BackupError('Not imported: data.json names entries the archive does not hold');
  return { manifest, data };
}

async function readJson(work: string, name: string): Promise<unknown> {
  try {
    return parseBoundedJson(await fsp.readFile(path.join(work, name), 'utf8'), name, ARCHIVE_JSON_LIMITS);
  } catch (err) {
    throw new BackupError(`Not imported: ${name} is not valid JSON (${(err as Error).message})`);
  }
}

function uuid(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isUuid(value)) throw new BackupError(`Not imported: ${field} is not a uuid`);
  return value;
}

/** The owner, and every clash with what the platform already has, before anything is written. */
async function preflight(d: BackupDeps, data: ArchiveData, projectId: string, ownerEmail: string): Promise<string> {
  const q = d.database.query.bind(d.database);
  const [owner] = await q<{ id: string }>('SELECT id FROM accounts WHERE email_normalized = $1', [normalizeEmail(ownerEmail)]);
  if (!owner) throw new BackupError(`No account with the e-mail ${ownerEmail} on this platform: register it first, then import`);
  const clash = (what: string) => new BackupError(`Not imported: ${what}. Nothing was written.`);
  if ((await q('SELECT 1 FROM projects WHERE id = $1', [projectId])).length) throw clash(`project ${projectId} is already on this platform (delete it first to restore over it)`);
  if ((await q('SELECT 1 FROM projects WHERE subdomain = $1', [data.project.subdomain])).length) throw clash(`the subdomain ${String(data.project.subdomain)} is taken by another project`);
  if ((await q('SELECT 1 FROM projects WHERE bucket_id = $1', [data.project.bucket_id])).length) throw clash('the project\'s bucket id is taken by another project');
  const names = namesFor(projectId);
  if ((await q('SELECT 1 FROM pg_roles WHERE rolname IN ($1, $2)', [names.ownerRole, names.appRole])).length)
    throw clash(`the database roles of project ${projectId} exist on this PostgreSQL server (roles are server-wide: another platform on it still has the project)`);
  if (data.mail) {
    const domain = String(data.mail.domain.domain);
    if (data.mail.domain.verified && (await q('SELECT 1 FROM smtp_domains WHERE domain = $1 AND verified', [domain])).length)
      throw clash(`the mail domain ${domain} is verified by another project`);
    const emails = data.mail.accounts.map((a) => String(a.email));
    if (emails.length && (await q('SELECT email FROM mail_accounts WHERE email = ANY($1::text[])', [emails])).length) throw clash('a mailbox of the archive exists on this platform');
  }
  return owner.id;
}

async function putEntry(d: BackupDeps, work: string, entry: string, key: string, contentType: string): Promise<void> {
  const file = path.join(work, entry);
  const { size } = await fsp.stat(file);
  await d.store.put(key, size ? fs.createReadStream(file) : Readable.from([]), { size, contentType });
}

/**
 * One carried row (only the columns of CARRIED_COLUMNS, typed by the table itself), plus fixed ones.
 * jsonb columns (a deployment's rules and command) take the JSON value itself, not its text.
 */
async function insertCarried(tx: TxClient, table: keyof typeof CARRIED_COLUMNS, row: Row, fixed: Record<string, [value: string, type: 'uuid' | 'text']> = {}): Promise<void> {
  const carried = (CARRIED_COLUMNS[table] as readonly string[]).filter((c) => !(c in fixed));
  const fixedNames = Object.keys(fixed);
  const cols = [...fixedNames, ...carried].map(quoteIdent).join(', ');
  const values = [...fixedNames.map((name, i) => `$${i + 2}::${fixed[name][1]}`), ...carried.map((c) => `r.${quoteIdent(c)}`)].join(', ');
  await tx.query(
    `INSERT INTO ${quoteIdent(table)} (${cols}) SELECT ${values} FROM jsonb_populate_record(NULL::${quoteIdent(table)}, $1::text::jsonb) r`,
    [JSON.stringify(row), ...Object.values(fixed).map(([v]) => v)],
  );
}

/** Returns what the import changed on the way (a custom domain imported unverified). */
async function writeRows(tx: TxClient, d: BackupDeps, work: string, data: ArchiveData, projectId: string, ownerId: string): Promise<string[]> {
  const warnings: string[] = [];
  await insertCarried(tx, 'projects', data.project, { id: [projectId, 'uuid'], owner_id: [ownerId, 'uuid'] });
  for (const k of data.keys) {
    if ((k.kind !== 'bucket' && k.kind !== 'authentication') || typeof k.key !== 'string') throw new BackupError('Not imported: a project key in data.json is malformed');
    await tx.query(
      "INSERT INTO project_keys (project_id, kind, key_hash, key_enc, created_at) VALUES ($1, $2, encode(sha256(convert_to($3::text, 'UTF8')), 'hex'), $4, $5::text::timestamptz)",
      [projectId, k.kind, k.key, d.secrets.seal(k.key), k.created_at],
    );
  }
  if (data.auth_settings) await insertCarried(tx, 'auth_settings', data.auth_settings, { project_id: [projectId, 'uuid'] });
  for (const u of data.end_users) await insertCarried(tx, 'end_users', u, { project_id: [projectId, 'uuid'] });
  for (const f of data.files) {
    const id = uuid(f.object_id, 'files/object_id');
    await insertCarried(tx, 'storage_objects', f, { project_id: [projectId, 'uuid'], storage_key: [objectKey(projectId, id), 'text'] });
  }
  if (data.site) {
    const dep = data.site.deployment;
    uuid(dep.id, 'site/deployment/id');
    if (dep.status !== 'live') throw new BackupError('Not imported: the archived deployment is not a live one');
    await insertCarried(tx, 'site_deployments', dep, { project_id: [projectId, 'uuid'] });
    await tx.query('INSERT INTO sites (project_id, live_deployment_id, updated_at) VALUES ($1, $2, $3::text::timestamptz)', [projectId, dep.id, data.site.updated_at]);
  }
  await restoreSiteSettings(tx, d, data, projectId, warnings);
  if (data.mail) {
    const domain = data.mail.domain;
    const domainId = uuid(domain.id, 'mail/domain/id');
    if (typeof domain.dkim_private_key !== 'string') throw new BackupError('Not imported: the mail domain has no DKIM key');
    await insertCarried(tx, 'smtp_domains', domain, { project_id: [projectId, 'uuid'], dkim_private_key: [d.secrets.seal(domain.dkim_private_key), 'text'] });
    for (const a of data.mail.accounts) await insertCarried(tx, 'mail_accounts', a, { domain_id: [domainId, 'uuid'] });
  }
  if (data.database) await restoreDatabase(tx, work, data.database.tables, projectId);
  return warnings;
}

/** The site's environment (secrets sealed with this platform's secret), build settings and custom domains. */
async function restoreSiteSettings(tx: TxClient, d: BackupDeps, data: ArchiveData, projectId: string, warnings: string[]): Promise<void> {
  const env = data.site_env ?? [];
  for (const v of env) {
    const name = typeof v.name === 'string' ? v.name : '';
    const problem = envNameProblem(name);
    if (problem || typeof v.value !== 'string' || typeof v.secret !== 'boolean') throw new BackupError(`Not imported: a site variable in data.json is malformed${problem ? ` (${problem})` : ''}`);
    // Sealed as SiteEnv seals it: bound to its project and name.
    const value = v.secret ? d.secrets.seal(JSON.stringify([projectId, name, v.value])) : v.value;
    await insertCarried(tx, 'site_env', v, { project_id: [projectId, 'uuid'], value: [value, 'text'] });
  }
  // The variables' version: processes started here read them fresh (SiteEnv bumps it per change).
  if (env.length) {
    await tx.query('INSERT INTO sites (project_id, env_version) VALUES ($1, 1) ON CONFLICT (project_id) DO UPDATE SET env_version = 1', [projectId]);
  }
  if (data.build_settings) await insertCarried(tx, 'site_build_settings', data.build_settings, { project_id: [projectId, 'uuid'] });
  for (const dom of data.domains ?? []) {
    const check = normalizeHostname(dom.hostname, d.platformDomain ?? '', d.mailHost);
    if (!check.ok || check.hostname !== dom.hostname) {
      warnings.push(`The custom domain ${String(dom.hostname)} was not imported: ${check.ok ? 'it is not in its normal form' : check.message}`);
      continue;
    }
    // A name verified by another project here stays that project's: ours comes back as a pending
    // claim (the rest of the project is not refused for it), verified again once it is free.
    let row = dom;
    if (dom.verified_at && (await tx.query('SELECT 1 FROM site_domains WHERE hostname = $1 AND verified_at IS NOT NULL', [check.hostname])).length) {
      row = { ...dom, verified_at: null };
      warnings.push(`The custom domain ${check.hostname} is verified by another project on this platform: imported unverified; verify it again once that project releases it`);
    }
    await insertCarried(tx, 'site_domains', row, { project_id: [projectId, 'uuid'] });
  }
}

function columnSpec(c: TableInfo['columns'][number]): ColumnSpec {
  if (!(COLUMN_TYPES as readonly string[]).includes(c.type)) throw new BackupError(`Not imported: column ${c.name} has type ${c.type}, which this format does not carry`);
  // The owner rule's default (the signed-in end user) is made again by applyAccess.
  const given = c.default === 'end user id' ? null : c.default;
  return { name: c.name, type: c.type as ColumnSpec['type'], not_null: !c.nullable, unique: c.unique, primary_key: c.primaryKey, ...(given === null ? {} : { default: given }) } as ColumnSpec;
}

/** The project's schema and roles as Provisioning makes them, its tables as the owner made them. */
async function restoreDatabase(tx: TxClient, work: string, tables: ArchivedTable[], projectId: string): Promise<void> {
  const names = namesFor(projectId);
  const owner = quoteIdent(names.ownerRole);
  const app = quoteIdent(names.appRole);
  const schema = quoteIdent(names.schemaName);
  for (const role of [owner, app]) {
    await tx.query(`CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOBYPASSRLS NOREPLICATION`);
    await tx.query(`GRANT ${role} TO CURRENT_USER`);
  }
  await tx.query(`CREATE SCHEMA ${schema} AUTHORIZATION ${owner}`);
  await tx.query(`REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC`);
  await tx.query(`GRANT USAGE ON SCHEMA ${schema} TO ${app}`);
  await tx.query('INSERT INTO project_databases (project_id, schema_name, owner_role, app_role) VALUES ($1, $2, $3, $4)', [projectId, names.schemaName, names.ownerRole, names.appRole]);

  const row = { projectId, ...names, createdAt: new Date() };
  await tx.query(`SET LOCAL ROLE ${owner}`);
  await tx.query(`SET LOCAL search_path = ${schema}`);
  // Tables and rows first, foreign keys after (any order of rows satisfies them once all are in),
  // triggers and access rules last (no change notices for the restore itself).
  for (const t of tables) {
    checkIdentifier(t.name, 'table');
    if (!ACCESS.has(t.access)) throw new BackupError(`Not imported: table ${t.name} has an unknown access rule`);
    const specs = t.columns.map(columnSpec);
    const { sql } = createTableSql(names.schemaName, t.name, specs);
    await tx.query(sql);
    await loadRows(tx, work, names.schemaName, t);
  }
  for (const t of tables) {
    for (const c of t.columns) {
      if (!c.references) continue;
      checkIdentifier(c.references.table, 'references');
      checkIdentifier(c.references.column, 'references');
      await tx.query(
        `ALTER TABLE ${quoteIdent(t.name)} ADD FOREIGN KEY (${quoteIdent(c.name)}) REFERENCES ${schema}.${quoteIdent(c.references.table)} (${quoteIdent(c.references.column)})`,
      );
    }
    const info: TableInfo = { name: t.name, columns: t.columns, primaryKey: t.primary_key };
    await attachTriggers(tx, projectId, t.name, t.primary_key);
    await applyAccess(tx, row, info, t.access);
  }
  await tx.query('RESET ROLE');
  await tx.query('SET LOCAL search_path = public');
  for (const t of tables) {
    await tx.query('INSERT INTO project_db_tables (project_id, table_name, access, last_modified) VALUES ($1, $2, $3, $4::text::timestamptz)', [
      projectId,
      t.name,
      t.access,
      t.last_modified,
    ]);
  }
}

async function loadRows(tx: TxClient, work: string, schemaName: string, t: ArchivedTable): Promise<void> {
  const target = `${quoteIdent(schemaName)}.${quoteIdent(t.name)}`;
  const cols = t.columns.map((c) => quoteIdent(c.name)).join(', ');
  const perRow = t.columns.length;
  const batch = Math.max(1, Math.floor(INSERT_PARAMS / perRow));
  let pending: (string | null)[][] = [];
  let count = 0;
  const flush = async () => {
    if (!pending.length) return;
    const tuples = pending.map((_, i) => `(${t.columns.map((c, j) => `$${i * perRow + j + 1}::text::${c.type}`).join(', ')})`);
    // OVERRIDING SYSTEM VALUE: identity columns keep their numbers.
    await tx.query(`INSERT INTO ${target} (${cols}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`, pending.flat());
    pending = [];
  };
  const lines = (await fsp.readFile(path.join(work, t.entry), 'utf8')).split('\n');
  for (const line of lines) {
    if (!line) continue;
    let values: unknown;
    try {
      values = parseBoundedJson(line, `a row of table ${t.name}`, ARCHIVE_JSON_LIMITS);
    } catch (err) {
      throw new BackupError(`Not imported: a row of table ${t.name} is not valid JSON (${(err as Error).message})`);
    }
    if (!Array.isArray(values) || values.length !== perRow || !values.every((v) => v === null || typeof v === 'string'))
      throw new BackupError(`Not imported: a row of table ${t.name} does not match its columns`);
    pending.push(values as (string | null)[]);
    count++;
    if (pending.length >= batch) await flush();
  }
  await flush();
  if (count !== t.rows) throw new BackupError(`Not imported: table ${t.name} holds ${count} rows, its record says ${t.rows}`);
  for (const c of t.columns.filter((col) => col.identity)) {
    await tx.query(`SELECT setval(pg_get_serial_sequence($1, $2), m) FROM (SELECT max(${quoteIdent(c.name)}) AS m FROM ${target}) x WHERE m IS NOT NULL`, [target, c.name]);
  }
}

/** PostgreSQL's refusals in words (a clash found only by the transaction, such as an end user id). */
function translate(err: unknown): unknown {
  if (err instanceof BackupError) return err;
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e.code === '23505') return new BackupError(`Not imported: a row of the archive clashes with one on this platform (${e.constraint ?? e.message}). Nothing was written.`);
  if (e.code && /^(22|23|42)/.test(e.code)) return new BackupError(`Not imported: the archive's rows were refused by the database (${e.message}). Nothing was written.`);
  if ((err as { statusCode?: number }).statusCode === 400) return new BackupError(`Not imported: ${(err as Error).message}`);
  return err;
}
