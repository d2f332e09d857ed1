// A webhook's signature is over the bytes sent, not over JSON parsed and printed again: for the
// operations named here the body is kept as it arrived (req.rawBody) while it streams to the parser.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes as received (only for the operations given to keepRawBody). */
    rawBody?: Buffer;
  }
}

export function keepRawBody(app: FastifyInstance, operationIds: string[]): void {
  const wanted = new Set(operationIds);
  app.addHook('preParsing', async (req, _reply, payload) => {
    if (!wanted.has(req.routeOptions.config?.operationId ?? '')) return payload;
    const chunks: Buffer[] = [];
    const copy = new PassThrough({
      transform(chunk: Buffer, _e, done) {
        chunks.push(chunk);
        done(null, chunk);
      },
    });
    copy.on('end', () => {
      req.rawBody = Buffer.concat(chunks);
    });
    payload.on('error', (err) => copy.destroy(err));
    return payload.pipe(copy);
  });
}
