// Live changes of a table as Server-Sent Events, across instances (the hub: changes.ts).
// Credentials as for a select: the project's key (X-Hostbase-Key, or the publishable key in the
// deprecated x-api-key), and optionally an end user's access token (present but invalid: 401,
// never silently anonymous). At subscribe time the table
// must exist (404) and the caller must be allowed to read it (403): both by a probe run as the
// caller, so the database's grants decide.
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { HandlerMap } from '../../platform/http/types';
import { appCaller } from '../caller';
import { AppError } from '../../platform/errors';
import { bearerToken, headerValue } from '../../platform/http/security';
import type { ProjectRow } from '../projects';
import type { DatabaseContext } from './database.context';
import type { ChangesHub, Credential } from './changes';
import { checkIdentifier, quoteIdent } from './identifiers';
import { tenantError } from '../../platform/pg-errors';
import { SSE_HEADERS } from '../../platform/http/live-streams';

export function createChangesHandlers(ctx: DatabaseContext, hub: ChangesHub): HandlerMap {
  return {
    subscribeDbChanges: async (req, reply) => {
      const { project, endUserId } = streamCaller(req);
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

/**
 * The key's project and the end user of the call (a token that did not verify is a 401). Live
 * changes follow the table's access rule for either key: the secret key alone reads as a caller
 * with the key only.
 */
function streamCaller(req: FastifyRequest): { project: ProjectRow; endUserId: string | null } {
  const app = appCaller(req);
  return { project: app.project, endUserId: app.endUser?.id ?? null };
}

/**
 * The stream's key and access token, to be checked again while it is open (changes.ts): the key
 * must still name the project (not rotated, project not deleted) and the token still verify for
 * the same end user (not expired, not revoked by a password change).
 */
function credentialOf(req: FastifyRequest, projectId: string, endUserId: string | null): Credential {
  const viaNewHeader = req.projectKeyHeader === 'x-hostbase-key';
  const key = headerValue(req, viaNewHeader ? 'x-hostbase-key' : 'x-api-key') ?? '';
  const token = endUserId ? (viaNewHeader ? headerValue(req, 'x-hostbase-user-token') : bearerToken(req)) : undefined;
  const app = req.server;
  return {
    id: `${key}\n${token ?? ''}`,
    stillValid: async () => {
      const project = viaNewHeader ? (await app.projects.projectForAnyKey(key))?.project : await app.projects.projectForKey('authentication', key);
      if (project?.id !== projectId) return false;
      if (!token) return true;
      try {
        return (await app.endUsers.authenticate(project, token)).id === endUserId;
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
