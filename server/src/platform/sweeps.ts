// A sweep: one statement that deletes rows which only mattered for a while (expired tokens, old
// rate-limit windows, instances long gone), kept by the door of the table it sweeps. Idempotent:
// any instance may run any sweep at any time. housekeeping.ts runs every one, periodically.
import type { Database } from '../db/client';

export interface Sweep {
  /** What it deletes, for the log of a failure. */
  name: string;
  run: (database: Pick<Database, 'query'>) => Promise<void>;
}

/** A sweep of one DELETE statement. */
export function sweepOf(name: string, sql: string): Sweep {
  return { name, run: async (database) => void (await database.query(sql)) };
}
