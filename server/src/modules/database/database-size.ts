// The size of projects' databases on disk, and the account's plan limit it counts against (SPEC
// section 9). Reads the platform's tables: run as the platform (tx.asPlatform in a tenant session).
import type { TxClient } from '../../db/client';
import { planLimits } from '../../lib/plans';

type Querier = Pick<TxClient, 'query'>;

/** Every relation of the schemas (tables with their indexes and TOAST, sequences). */
const SCHEMAS_BYTES = `
SELECT coalesce(sum(pg_catalog.pg_total_relation_size(c.oid)), 0)::float8 AS bytes
  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p', 'm', 'S')`;

// Qualified: inside a tenant session the search_path is the project's schema.
const ACCOUNT_SCHEMAS = `
SELECT d.schema_name FROM public.project_databases d JOIN public.projects p ON p.id = d.project_id WHERE p.owner_id = $1`;

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

export async function databaseUsage(q: Querier, accountId: string): Promise<DatabaseUsage> {
  const [account] = await q.query<{ plan: string }>('SELECT plan FROM public.accounts WHERE id = $1', [accountId]);
  const schemas = (await q.query<{ schema_name: string }>(ACCOUNT_SCHEMAS, [accountId])).map((r) => r.schema_name);
  const limits = planLimits(account?.plan ?? 'hobby');
  return {
    usedBytes: await schemasBytes(q, schemas),
    limitBytes: Number.isFinite(limits.databaseBytes) ? limits.databaseBytes : undefined,
    planLabel: limits.label,
  };
}
