// What a project archive holds (format version 1):
//   manifest.json       { format, version, created_at, source_version, project_id, counts }
//   data.json           the project's platform rows (below), secrets in plain text (see README);
//                       fields added since (site_env, build_settings, domains, the deployment's
//                       rules/framework/command/runtime) are optional: an older archive restores none
//   tables/NNNN.ndjson  one project table's rows, each a JSON array of the columns' text forms
//   objects/NNNNNN      one stored object's bytes (a file, or the live deployment's archive: a
//                       manifest deployment's files are zipped at export, so it comes back as an
//                       ordinary archive deployment)
//   checksums.json      { "<entry>": "<sha256>" } for every entry above: written last, checked first
// The platform's own columns are listed here once: export selects them, import inserts them, and
// nothing else an archive carries ever becomes a column name.
import type { ColumnInfo, DbAccess } from '../database';

export const ARCHIVE_FORMAT = 'hostbase-project';
export const ARCHIVE_VERSION = 1;

export const ENTRY_NAME = /^(manifest\.json|data\.json|checksums\.json|tables\/\d{4}\.ndjson|objects\/\d{6})$/;

/** The platform tables a project's rows live in, and the columns carried (project_id is implied). */
export const CARRIED_COLUMNS = {
  projects: ['id', 'name', 'description', 'subdomain', 'bucket_id', 'created_at', 'updated_at'],
  auth_settings: ['allowed_origins', 'site_url', 'block_common_passwords', 'updated_at'],
  end_users: ['id', 'email', 'email_normalized', 'password_hash', 'email_verified_at', 'token_version', 'last_login', 'created_at', 'updated_at'],
  storage_objects: ['object_id', 'name', 'object_type', 'object_size', 'etag', 'share_segment', 'created_at', 'updated_at'],
  site_deployments: [
    'id', 'type', 'status', 'size_bytes', 'file_count', 'root', 'entry', 'error', 'build_log', 'created_at', 'finished_at', 'stored_bytes',
    'rules', 'framework', 'command', 'runtime',
  ],
  site_build_settings: ['root_directory', 'install_command', 'build_command', 'start_command', 'output_directory', 'updated_at'],
  /** Not the certificate or its key: the target obtains its own. */
  site_domains: ['hostname', 'verified_at', 'created_at'],
  /** value is carried plain (a secret opened): import seals it again. */
  site_env: ['name', 'secret', 'updated_at'],
  smtp_domains: ['id', 'domain', 'verified', 'verified_at', 'dkim_selector', 'dkim_public_key', 'dns_check', 'dns_checked_at', 'created_at'],
  mail_accounts: ['id', 'email', 'password_hash', 'active', 'quota_bytes', 'created_at', 'updated_at'],
} as const;

export type Row = Record<string, unknown>;

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  created_at: string;
  /** The exporting platform's version (package.json). */
  source_version: string;
  project_id: string;
  counts: { tables: number; rows: number; files: number; end_users: number; mailboxes: number; deployments: number };
}

export interface ArchivedTable {
  name: string;
  access: DbAccess;
  last_modified: string | null;
  columns: ColumnInfo[];
  primary_key: string[];
  rows: number;
  /** tables/NNNN.ndjson */
  entry: string;
}

export interface ArchiveData {
  project: Row;
  /** Active keys, plain: resealed with the target's secret on import. */
  keys: { kind: 'bucket' | 'authentication'; key: string; created_at: string }[];
  auth_settings: Row | null;
  end_users: Row[];
  /** Each with `entry`: objects/NNNNNN. */
  files: Row[];
  /** The live deployment (with `entry` for its archive) or none. */
  site: { deployment: Row; updated_at: string } | null;
  /** The site's variables, secrets' values plain: sealed with the target's secret on import. Absent in older archives. */
  site_env?: (Row & { value: string })[];
  /** The owner's build overrides (site_build_settings), or none. Absent in older archives. */
  build_settings?: Row | null;
  /** Custom domains (hostname, verified_at): the target issues their certificates. Absent in older archives. */
  domains?: Row[];
  /** With `dkim_private_key` plain (PEM): resealed with the target's secret on import. */
  mail: { domain: Row; accounts: Row[] } | null;
  database: { tables: ArchivedTable[] } | null;
  /** What the export could not carry (made with the SQL box): printed, and kept here for the record. */
  warnings: string[];
}
