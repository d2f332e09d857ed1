// Several statements in one round trip to PostgreSQL: each one's Parse, Bind, Describe and
// Execute written together, then one Sync. PostgreSQL runs everything before a Sync as one
// implicit transaction (committed at the Sync, rolled back as a whole when a statement fails, the
// rest skipped), so a statement can rely on what the ones before it set with set_config(…, true).
// That is how PostgREST runs a request as the caller's role; node-pg sends one statement per
// round trip and has no such call, so this is a pg "submittable" built on its Query.
//
// Each statement is extended protocol with bound parameters: text can't smuggle a second statement.
import type { PoolClient } from 'pg';

export interface PipelineStatement {
  text: string;
  values?: unknown[];
}

// pg's Query (a submittable: client.query(q) hands it the connection) is not in @types/pg.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Query = require('pg/lib/query') as new (config: { text: string; callback: (err: Error | null, results: unknown) => void }) => PgQuery;
interface PgQuery {
  prepare(connection: PgConnection): void;
  requiresPreparation(): boolean;
}
interface PgConnection {
  parse(msg: { text: string; name?: string; types?: unknown[] }): void;
  bind(msg: { portal: string; statement: string; values: unknown[] }): void;
  describe(msg: { type: 'P'; name: string }): void;
  execute(msg: { portal: string; rows?: number }): void;
  sync(): void;
}
// pg's own mapping of JavaScript values to the wire (dates, buffers, arrays, objects as JSON).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

interface PgResult {
  rows: Record<string, unknown>[];
}

/** Runs the statements in one round trip as one transaction; each statement's rows, in order. */
export function runPipeline(client: PoolClient, statements: PipelineStatement[]): Promise<Record<string, unknown>[][]> {
  if (statements.length === 0) return Promise.resolve([]);
  // Values go on the wire as pg maps them, all mapped before anything is written: a value pg
  // can't map (a circular object) must fail the call before a first statement could run alone.
  let mapped: { text: string; values: unknown[] }[];
  try {
    mapped = statements.map((s) => ({ text: s.text, values: (s.values ?? []).map((v) => prepareValue(v)) }));
  } catch (err) {
    return Promise.reject(err as Error);
  }
  return new Promise((resolve, reject) => {
    const query = new Query({
      text: statements[0].text,
      callback: (err, results) => {
        if (err) return reject(err);
        // pg gives one result for one statement, an array for several.
        const list = (Array.isArray(results) ? results : [results]) as PgResult[];
        resolve(list.map((r) => r.rows));
      },
    });
    query.requiresPreparation = () => true;
    query.prepare = (connection: PgConnection) => {
      for (const s of mapped) {
        // The unnamed statement and portal, replaced by each next one: the server reads the
        // messages in order.
        connection.parse({ text: s.text });
        connection.bind({ portal: '', statement: '', values: s.values });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      }
      connection.sync();
    };
    (client as unknown as { query(q: unknown): void }).query(query);
  });
}
