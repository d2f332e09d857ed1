// The statements on a project's own schema for an archive (database.lifecycle.ts): what only the
// SQL box makes (not carried), and the rows of its tables, each row a JSON array of its columns'
// text forms (exact for numeric, jsonb and timestamps), on the export's snapshot or the import's
// transaction. The platform's records of the database are database.repository.ts'.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Querier } from '../../db/json-rows';
import { DEFAULT_JSON_LIMITS, parseBoundedJson } from '../../platform/json-limits';
import { LifecycleError } from '../projects';
import { quoteIdent } from './identifiers';

/** Rows read per statement at export. */
const PAGE_ROWS = 5000;
/** Parameters per INSERT at import. */
const INSERT_PARAMS = 10_000;
/** A row nests no deeper than a request may (its size is the archive's own limit). */
const ROW_JSON_LIMITS = { maxDepth: DEFAULT_JSON_LIMITS.maxDepth, maxBytes: Number.MAX_SAFE_INTEGER };

export const tenantArchiveRows = {
  /** What only the SQL box makes and the archive does not carry. */
  async uncarried(q: Querier, schema: string): Promise<string[]> {
    const found = await q.query<{ what: string }>(
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
    return found.map((f) => f.what);
  },

  /** A table's rows into `file`, one JSON array per line, in key order; how many. */
  async dump(q: Querier, schema: string, table: string, columns: string[], primaryKey: string[], file: string): Promise<number> {
    const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    const done = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    const select = `SELECT ARRAY[${columns.map((c) => `${quoteIdent(c)}::text`).join(', ')}] AS r FROM ${quoteIdent(schema)}.${quoteIdent(table)}
      ORDER BY ${(primaryKey.length ? primaryKey : columns).map(quoteIdent).join(', ')} LIMIT ${PAGE_ROWS} OFFSET $1`;
    let count = 0;
    for (;;) {
      const page = await q.query<{ r: (string | null)[] }>(select, [count]);
      for (const { r } of page) out.write(JSON.stringify(r) + '\n');
      count += page.length;
      if (page.length < PAGE_ROWS) break;
    }
    out.end();
    await done;
    return count;
  },

  /** The rows of a dump into the table (identity columns keep their numbers, and their counters go on from the largest); how many. */
  async load(q: Querier, schema: string, table: { name: string; columns: { name: string; type: string; identity: boolean }[] }, file: string): Promise<number> {
    const target = `${quoteIdent(schema)}.${quoteIdent(table.name)}`;
    const cols = table.columns.map((c) => quoteIdent(c.name)).join(', ');
    const perRow = table.columns.length;
    const batch = Math.max(1, Math.floor(INSERT_PARAMS / perRow));
    let pending: (string | null)[][] = [];
    let count = 0;
    const flush = async () => {
      if (!pending.length) return;
      const tuples = pending.map((_, i) => `(${table.columns.map((c, j) => `$${i * perRow + j + 1}::text::${c.type}`).join(', ')})`);
      await q.query(`INSERT INTO ${target} (${cols}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`, pending.flat());
      pending = [];
    };
    for (const line of (await fsp.readFile(file, 'utf8')).split('\n')) {
      if (!line) continue;
      let values: unknown;
      try {
        values = parseBoundedJson(line, `a row of table ${table.name}`, ROW_JSON_LIMITS);
      } catch (err) {
        throw new LifecycleError(`a row of table ${table.name} is not valid JSON (${(err as Error).message})`);
      }
      if (!Array.isArray(values) || values.length !== perRow || !values.every((v) => v === null || typeof v === 'string'))
        throw new LifecycleError(`a row of table ${table.name} does not match its columns`);
      pending.push(values as (string | null)[]);
      count++;
      if (pending.length >= batch) await flush();
    }
    await flush();
    for (const c of table.columns.filter((col) => col.identity)) {
      await q.query(`SELECT setval(pg_get_serial_sequence($1, $2), m) FROM (SELECT max(${quoteIdent(c.name)}) AS m FROM ${target}) x WHERE m IS NOT NULL`, [target, c.name]);
    }
    return count;
  },
};
