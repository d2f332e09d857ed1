// Hosted sites' runtime logs (their processes' stdout and stderr), kept in the database so that
// every API instance shows the same log whichever instance runs the site (a balancer may send the
// request for it to any). Output is
// gathered per deployment for a moment and appended in one statement that also trims the row to
// its last LOG_TAIL characters: a chatty site costs one small write per flush, never an unbounded
// row. Deployments per project are bounded (HOSTING_KEEP_DEPLOYMENTS) and take their log with them.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/client';

export const LOG_TAIL = 64 * 1024;

/** Where a runtime writes its sites' output and reads it back. */
export interface RuntimeLogSink {
  append(deploymentId: string, text: string): void;
  read(deploymentId: string): Promise<string>;
  close(): Promise<void>;
}

/** One process's sink (tests, and runtimes built without a database). */
export class MemoryLogs implements RuntimeLogSink {
  private readonly byDeployment = new Map<string, string>();
  append(deploymentId: string, text: string): void {
    const next = (this.byDeployment.get(deploymentId) ?? '') + text;
    this.byDeployment.set(deploymentId, next.length > LOG_TAIL ? next.slice(-LOG_TAIL) : next);
  }
  async read(deploymentId: string): Promise<string> {
    return this.byDeployment.get(deploymentId) ?? '';
  }
  async close(): Promise<void> {}
}

export class DatabaseLogs implements RuntimeLogSink {
  private pending = new Map<string, string>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly flushMs = 250,
  ) {}

  append(deploymentId: string, text: string): void {
    const next = (this.pending.get(deploymentId) ?? '') + text;
    this.pending.set(deploymentId, next.length > LOG_TAIL ? next.slice(-LOG_TAIL) : next);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.flushMs);
      this.timer.unref();
    }
  }

  async read(deploymentId: string): Promise<string> {
    await this.flush();
    const rows = await this.database.query<{ log: string }>('SELECT log FROM site_runtime_logs WHERE deployment_id = $1', [deploymentId]);
    return rows[0]?.log ?? '';
  }

  /** Writes what this instance gathered so far (one statement per deployment, in order). */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      for (const [deploymentId, text] of batch) {
        try {
          await this.database.query(
            `INSERT INTO site_runtime_logs (deployment_id, log, updated_at) VALUES ($1, right($2, ${LOG_TAIL}), now())
             ON CONFLICT (deployment_id) DO UPDATE SET log = right(site_runtime_logs.log || EXCLUDED.log, ${LOG_TAIL}), updated_at = now()`,
            [deploymentId, text],
          );
        } catch (err) {
          // Pruned or deleted meanwhile (the foreign key), or the database is away: the output is lost, the site is not.
          this.log.debug({ err, deploymentId }, 'hosting: a site log could not be written');
        }
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
