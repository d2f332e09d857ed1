// Archives of format version 1 (written before the lifecycle sections): every module's rows in one
// data.json, members named by an `entry` field. Read as the sections of version 2 would hold them;
// the live deployment's entry was overwritten with its archive's member name there, so it comes
// without one (hosting finds it again in the deployment's files).
import { BackupError } from './backup.errors';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `entry` (the member) as `member`, the rest as it was. */
function memberOf(row: unknown): unknown {
  if (!isObject(row)) return row;
  const { entry, ...rest } = row;
  return { ...rest, member: entry };
}

export function sectionsOfV1(data: unknown): { sections: Map<string, Json>; warnings: string[] } {
  if (!isObject(data) || !isObject(data.project) || !Array.isArray(data.files) || !Array.isArray(data.end_users) || !Array.isArray(data.keys))
    throw new BackupError('Not imported: data.json is not a project');
  const site = isObject(data.site) ? { ...data.site, deployment: memberOf(data.site.deployment) } : data.site;
  const database = isObject(data.database) && Array.isArray(data.database.tables) ? { ...data.database, tables: data.database.tables.map(memberOf) } : data.database;
  const sections = new Map<string, Json>([
    ['projects', { project: data.project, keys: data.keys }],
    ['auth-users', { auth_settings: data.auth_settings, end_users: data.end_users }],
    ['storage', { files: data.files.map(memberOf) }],
    ['hosting', { site, site_env: data.site_env, build_settings: data.build_settings }],
    ['domains', { domains: data.domains }],
    ['smtp', { mail: data.mail }],
    ['database', { database }],
  ]);
  return { sections, warnings: Array.isArray(data.warnings) ? data.warnings.map(String) : [] };
}
