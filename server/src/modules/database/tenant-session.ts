// Every statement of a project's database runs here: in a transaction that first sets, as the
// platform, the end user (hostbase.uid, read by the row-level security policies), the statement
// timeout and the search_path, and then becomes the project's role with SET LOCAL ROLE. The role
// can't leave itself (set_config is revoked from PUBLIC: migrations/0010), so whatever a call
// sends, it sees only what the project's role may see.
//
// The statement timeout goes to the engine as well (Database's `tenant` option): PostgreSQL
// enforces it itself, embedded PGlite can't, so its host ends the statement at that deadline and
// runs the platform's own statements before queued tenant ones (db/pglite-host.ts).
import type { Database, TxClient } from '../../db/client';
import { quoteIdent, quoteLiteral } from './identifiers';
import { isUuid } from '../../platform/ids';
import type { ProjectDatabaseRow } from './database.tables';

/** A tenant statement's timeout unless the caller gives one (config: DB_STATEMENT_TIMEOUT_MS). */
export const STATEMENT_TIMEOUT_MS = 5000;

export type TenantRole = 'owner' | 'app';

export interface TenantSessionOptions {
  role: TenantRole;
  /** The signed-in end user (app calls), or null. */
  endUserId?: string | null;
  readOnly?: boolean;
  timeoutMs?: number;
  /** Who the call is for, and when it was admitted (db/client.ts TenantLimits). */
  caller?: string;
  admittedAt?: number;
}

export interface TenantTx extends TxClient {
  /**
   * Runs fn as the platform within the same transaction (to write the platform's own records
   * with the tenant's change), then becomes the project's role again. Only for the platform's
   * own statements: never with text a caller sent.
   */
  asPlatform<R>(fn: () => Promise<R>): Promise<R>;
}

export async function inTenantSession<T>(
  database: Database,
  project: ProjectDatabaseRow,
  options: TenantSessionOptions,
  fn: (tx: TenantTx) => Promise<T>,
): Promise<T> {
  const role = quoteIdent(options.role === 'owner' ? project.ownerRole : project.appRole);
  // The platform's settings and the role, sent with BEGIN in one message. Every value in it is
  // the platform's own (an end user id read from the platform's table and checked as a uuid, a
  // number, names derived from the project id) and quoted as a literal besides.
  const endUserId = options.endUserId ?? '';
  if (endUserId && !isUuid(endUserId)) throw new Error('tenant session: the end user id is not a uuid');
  const timeoutMs = Math.trunc(options.timeoutMs ?? STATEMENT_TIMEOUT_MS);
  const prelude = [
    ...(options.readOnly ? ['SET TRANSACTION READ ONLY'] : []),
    `SELECT set_config('hostbase.uid', ${quoteLiteral(endUserId)}, true), set_config('statement_timeout', '${timeoutMs}', true), set_config('search_path', ${quoteLiteral(quoteIdent(project.schemaName))}, true)`,
    `SET LOCAL ROLE ${role}`,
  ].join(';\n');
  return database.transaction(async (tx) => {
    return fn({
      query: (sql, params) => tx.query(sql, params),
      queryArrays: (sql, params, textOids) => tx.queryArrays(sql, params, textOids),
      setStatementTimeout: (ms) => tx.setStatementTimeout(ms),
      // The platform's statements also leave the project's search_path: a project may name a
      // table like a platform table, and no platform statement should ever find the project's.
      asPlatform: async (platformFn) => {
        await tx.query('RESET ROLE');
        await tx.query('SET LOCAL search_path = public');
        try {
          return await platformFn();
        } finally {
          await tx.query(`SET LOCAL search_path = ${quoteIdent(project.schemaName)}`);
          await tx.query(`SET LOCAL ROLE ${role}`);
        }
      },
    });
  }, { prelude, tenant: { timeoutMs, caller: options.caller, admittedAt: options.admittedAt } });
}

/**
 * One statement of a caller (the row API's, rows.query.ts) as the project's role, in one round
 * trip: the platform's settings and the role set with set_config(…, true) by a first statement,
 * then the statement, both one transaction (Database.pipeline). The same settings as
 * inTenantSession, bound as parameters; the role last, after the platform's own calls.
 */
export async function tenantStatement<T>(
  database: Database,
  project: ProjectDatabaseRow,
  options: Omit<TenantSessionOptions, 'readOnly'>,
  statement: { sql: string; params: unknown[] },
): Promise<T[]> {
  const endUserId = options.endUserId ?? '';
  if (endUserId && !isUuid(endUserId)) throw new Error('tenant session: the end user id is not a uuid');
  const timeoutMs = Math.trunc(options.timeoutMs ?? STATEMENT_TIMEOUT_MS);
  const role = options.role === 'owner' ? project.ownerRole : project.appRole;
  const [, rows] = await database.pipeline([
    {
      text: "SELECT set_config('hostbase.uid', $1, true), set_config('statement_timeout', $2, true), set_config('search_path', $3, true), set_config('role', $4, true)",
      values: [endUserId, String(timeoutMs), quoteIdent(project.schemaName), role],
    },
    { text: statement.sql, values: statement.params },
  ], { tenant: { timeoutMs, caller: options.caller, admittedAt: options.admittedAt } });
  return rows as T[];
}
