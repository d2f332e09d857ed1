// Live changes of a table as Server-Sent Events, across instances (the hub: changes.ts).
// Credentials as for a select: the project's authentication key, and optionally an end user's
// access token (present but invalid: 401, never silently anonymous). At subscribe time the table
// must exist (404) and the caller must be allowed to read it (403): both by a probe run as the
// caller, so the database's grants decide.
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../http/types';
import { keyProject } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { bearerToken } from '../../http/security';
import type { ProjectRow } from '../projects/projects.tables';
import type { DatabaseContext } from './database.context';
import type { ChangesHub, Credential } from './changes';
import { checkIdentifier, quoteIdent } from './identifiers';
import { tenantError } from './pg-errors';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // nginx and similar proxies would otherwise hold events back in their buffers.
  'x-accel-buffering': 'no',
};

export function createChangesHandlers(ctx: DatabaseContext, hub: ChangesHub): HandlerMap {
  return {
    subscribeDbChanges: async (req, reply) => {
      const { project, endUserId } = appCaller(req);
      const table = checkIdentifier(req.params.table, 'params/table');
      await probeRead(ctx, project, table, endUserId);
      // HEAD: the answer's headers only; no stream to keep open.
      if (req.method === 'HEAD') return reply.headers(SSE_HEADERS).send('');

      const out = new PassThrough();
      const sub = await hub.subscribe(project.id, table, endUserId, out, credentialOf(req, project.id, endUserId), req.ip);
      // Whatever ends the response (the client going away, the server closing), the stream goes too.
      reply.raw.once('close', () => out.destroy());
      if (reply.raw.destroyed) out.destroy(); // gone while it was being subscribed
      sub.send('ready', { table });
      // Fastify pipes the stream (its hooks and headers still apply; no serialisation of a stream).
      return reply.headers(SSE_HEADERS).send(out);
    },
  };
}

/** The key's project and the end user of the call; a bearer that did not verify is a 401. */
function appCaller(req: FastifyRequest): { project: ProjectRow; endUserId: string | null } {
  const project = keyProject(req);
  if (req.headers.authorization !== undefined && !req.endUser) throw Errors.unauthorized('Invalid or expired access token');
  return { project, endUserId: req.endUser?.id ?? null };
}

/**
 * The stream's key and access token, to be checked again while it is open (changes.ts): the key
 * must still name the project (not rotated, project not deleted) and the token still verify for
 * the same end user (not expired, not revoked by a password change).
 */
function credentialOf(req: FastifyRequest, projectId: string, endUserId: string | null): Credential {
  const header = req.headers['x-api-key'];
  const key = (Array.isArray(header) ? header[0] : header) ?? '';
  const token = endUserId ? bearerToken(req) : undefined;
  const app = req.server;
  return {
    id: `${key}\n${token ?? ''}`,
    stillValid: async () => {
      const project = await app.projects.projectForKey('authentication', key);
      if (project?.id !== projectId) return false;
      if (!token) return true;
      try {
        return (await app.authUsers.authenticate(project, token)).id === endUserId;
      } catch (err) {
        if (err instanceof AppError) return false;
        throw err;
      }
    },
  };
}

/** Reads nothing from the table as the caller: 404 when it doesn't exist, 403 when the caller may not read it. */
async function probeRead(ctx: DatabaseContext, project: ProjectRow, table: string, endUserId: string | null): Promise<void> {
  try {
    await ctx.session(project, { role: 'app', endUserId, readOnly: true }, (tx, names) =>
      tx.query(`SELECT 1 FROM ${quoteIdent(names.schemaName)}.${quoteIdent(table)} LIMIT 0`),
    );
  } catch (err) {
    throw tenantError(err);
  }
}
