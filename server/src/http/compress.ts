// Large JSON answers compressed when the client accepts it (brotli, else gzip), at levels cheap
// enough to run per request. Only a serialized body (a string or a buffer) of a JSON type at or
// above the threshold is touched: streams pass as they are (Server-Sent Events are never held
// back in a compressor's buffer; downloads keep their Range semantics), as does anything already
// encoded, ranged or carrying an ETag of its own (a stored file that happens to be JSON: its tag
// names the identity bytes). Hosted sites never reach these hooks (the gateway hijacks them), and
// the console's files come precompressed (web-assets.ts).
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { negotiateEncoding, varyWithAcceptEncoding } from './accept-encoding';

/** Below this, compression saves less than it costs (headers, a round of CPU). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** A serialized JSON body at or above the threshold, not encoded, ranged or tagged already. */
function worthCompressing(reply: FastifyReply, payload: unknown): boolean {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  if (size < COMPRESS_THRESHOLD_BYTES) return false;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !JSON_TYPE.test(type)) return false;
  if (reply.statusCode === 204 || reply.statusCode === 206 || reply.statusCode === 304) return false;
  return !reply.hasHeader('content-encoding') && !reply.hasHeader('content-range') && !reply.hasHeader('etag');
}

export const compressPlugin = fp(
  async (app: FastifyInstance) => {
    // A callback hook, not an async one: the API's hot paths (small answers) pay no promise.
    app.addHook('onSend', (req, reply, payload, done) => {
      if (!worthCompressing(reply, payload)) return done(null, payload);
      reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary')));
      const coding = negotiateEncoding(req.headers['accept-encoding'], ['br', 'gzip']);
      if (coding === 'identity') return done(null, payload);
      const body = payload as string | Buffer;
      const compressed =
        coding === 'br'
          ? brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) } })
          : gzip(body, { level: 6 });
      compressed.then(
        (out) => {
          reply.header('content-encoding', coding);
          // Fastify counts the new body's length; a length set for the old one would be wrong.
          reply.removeHeader('content-length');
          done(null, out);
        },
        (err: Error) => done(err),
      );
    });
  },
  { name: 'hostbase-compress' },
);
