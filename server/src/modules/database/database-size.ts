// The size of projects' databases on disk, and the account's plan limit it counts against (SPEC
// section 9). Reads the platform's tables: run as the platform (tx.asPlatform in a tenant session).
import type { TxClient } from '../../db/client';
import { planLimits } from '../plans';

type Querier = Pick<TxClient, 'query'>;

/** Bytes of every relation of the schemas named by `schemas` (tables with their indexes and TOAST, sequences). */
const bytesOf = (schemas: string) => `
SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)::float8
  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname IN (${schemas}) AND c.relkind IN ('r', 'p', 'm', 'S')`;

const SCHEMAS_BYTES = `SELECT (${bytesOf('SELECT unnest($1::text[])')}) AS bytes`;

// The account's plan and its projects' databases, in one statement (the row API sends it before a
// write's transaction asks for a connection: a second statement could wait behind that one).
// Qualified: inside a tenant session the search_path is the project's schema.
const ACCOUNT_USAGE = `
SELECT a.plan, (${bytesOf('SELECT d.schema_name FROM public.project_databases d JOIN public.projects p ON p.id = d.project_id WHERE p.owner_id = a.id')}) AS used
  FROM public.accounts a
 WHERE a.id = $1`;

export async function schemasBytes(q: Querier, schemaNames: string[]): Promise<number> {
  const [row] = await q.query<{ bytes: number }>(SCHEMAS_BYTES, [schemaNames]);
  return Number(row?.bytes ?? 0);
}

export interface DatabaseUsage {
  /** Every database of the account's projects. */
  usedBytes: number;
  /** The plan's limit; undefined when it has none. */
  limitBytes?: number;
  planLabel: string;
}

/** The account's plan and the bytes of all its projects' databases. */
export async function accountUsage(q: Querier, accountId: string): Promise<{ plan: string; usedBytes: number }> {
  const [row] = await q.query<{ plan: string; used: number }>(ACCOUNT_USAGE, [accountId]);
  return { plan: row?.plan ?? 'hobby', usedBytes: Number(row?.used ?? 0) };
}

export async function databaseUsage(q: Querier, accountId: string): Promise<DatabaseUsage> {
  const { plan, usedBytes } = await accountUsage(q, accountId);
  const limits = planLimits(plan);
  return { usedBytes, limitBytes: Number.isFinite(limits.databaseBytes) ? limits.databaseBytes : undefined, planLabel: limits.label };
}
