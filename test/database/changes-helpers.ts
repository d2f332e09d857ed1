// Set-up for the live-change tests: tables made and rows written straight through tenant
// sessions (as the table API will), and a real HTTP client that reads an SSE stream.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DatabaseContext } from '../../server/src/modules/database/database.context';
import type { DbAccess } from '../../server/src/modules/database/database.tables';
import type { TenantTx } from '../../server/src/modules/database/tenant-session';
import { describeTables } from '../../server/src/modules/database/catalog';
import { applyAccess } from '../../server/src/modules/database/access-rules';
import { attachTriggers } from '../../server/src/modules/database/triggers';
import { quoteIdent } from '../../server/src/modules/database/identifiers';

type ProjectRef = { id: string };

/** CREATE TABLE name (columns) as the project's owner, with its triggers, its platform record and an access rule. */
export async function makeTable(ctx: DatabaseContext, project: ProjectRef, name: string, columns: string, access: DbAccess): Promise<void> {
  await ctx.session(project, { role: 'owner' }, async (tx, names) => {
    await tx.query(`CREATE TABLE ${quoteIdent(name)} (${columns})`);
    const [info] = await describeTables(tx, names.schemaName, name);
    await attachTriggers(tx, project.id, name, info.primaryKey);
    await tx.asPlatform(() =>
      tx.query('INSERT INTO public.project_db_tables (project_id, table_name, access) VALUES ($1, $2, $3)', [project.id, name, access]),
    );
    await applyAccess(tx, names, info, access);
  });
}

/** Changes a table's rule (its policies and its platform record) as the console will. */
export async function setAccess(ctx: DatabaseContext, project: ProjectRef, name: string, access: DbAccess): Promise<void> {
  await ctx.session(project, { role: 'owner' }, async (tx, names) => {
    const [info] = await describeTables(tx, names.schemaName, name);
    await applyAccess(tx, names, info, access);
    await tx.asPlatform(() => tx.query('UPDATE public.project_db_tables SET access = $3 WHERE project_id = $1 AND table_name = $2', [project.id, name, access]));
  });
}

/** Statements as the app role of `endUserId` (null: the key alone), or as the owner. */
export function asApp(ctx: DatabaseContext, project: ProjectRef, endUserId: string | null, fn: (tx: TenantTx) => Promise<unknown>): Promise<unknown> {
  return ctx.session(project, { role: 'app', endUserId }, fn);
}
export function asOwner(ctx: DatabaseContext, project: ProjectRef, fn: (tx: TenantTx) => Promise<unknown>): Promise<unknown> {
  return ctx.session(project, { role: 'owner' }, fn);
}

export interface SseEvent {
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a non-200 answer, parsed. */
  error?: { message: string; code?: string };
  /** Events received so far (comments are not events). */
  events: SseEvent[];
  comments: string[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves once `n` events (besides `ready`) have arrived; rejects after timeoutMs. */
  waitFor(n: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Events besides `ready`. */
  changes(): SseEvent[];
  close(): void;
}

/** The base URL of an app, listening on a free port (once). */
export async function baseUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** GET /api/db/v1/{table}/changes over a real socket; resolves with the answer's head (and the stream). */
export function subscribe(base: string, table: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/db/v1/${encodeURIComponent(table)}/changes`, { headers, agent: false }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let body = '';
      let resolveEnded!: () => void;
      const ended = new Promise<void>((r) => (resolveEnded = r));
      const changes = () => events.filter((e) => e.event !== 'ready');
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) return void (body += chunk);
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
        }
        for (const w of waiters.splice(0)) w();
      });
      res.on('end', () => {
        resolveEnded();
        for (const w of waiters.splice(0)) w();
      });
      res.on('close', () => resolveEnded());
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        ended,
        changes,
        close: () => req.destroy(),
        waitFor: (n, timeoutMs = 5000) =>
          new Promise((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`waited for ${n} events, got ${JSON.stringify(changes())}`)), timeoutMs);
            const check = () => {
              if (changes().length >= n) {
                clearTimeout(timer);
                ok(changes());
              } else waiters.push(check);
            };
            check();
          }),
      };
      if (res.statusCode === 200) {
        // The head is enough; the ready event follows at once.
        const ready = () => (events.some((e) => e.event === 'ready') ? resolve(stream) : waiters.push(ready));
        ready();
      } else {
        res.on('end', () => {
          stream.error = JSON.parse(body);
          resolve(stream);
        });
      }
    });
    req.on('error', reject);
  });
}

/** Lets in-flight notices arrive (to check that nothing more than expected came). */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));
