// Serving a stored file over HTTP: streamed, conditional (ETag / If-None-Match, Last-Modified),
// ranged (206 / 416), and boxed in so that a user's HTML or SVG can't act on our origin: a CSP
// sandbox (no script, no same-origin) plus nosniff, so a browser never reinterprets the type.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../platform/errors';
import { contentRange, isNotModified, rangeFor } from '../../platform/http/conditional';
import { ObjectNotFoundError, RangeNotSatisfiableError, type ObjectStore } from '../../platform/object-store/object-store';
import type { StorageObjectRow } from './storage.tables';
import { contentDisposition } from './file-meta';

export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

export interface SendOptions {
  attachment: boolean;
}

export function wantsAttachment(download: unknown): boolean {
  return download === '1' || download === 'true';
}

export async function sendObject(req: FastifyRequest, reply: FastifyReply, store: ObjectStore, row: StorageObjectRow, opts: SendOptions) {
  const etag = `"${row.etag}"`;
  const lastModified = row.updatedAt.toUTCString();
  reply.headers({
    etag,
    'last-modified': lastModified,
    // private: a shared cache must not keep a file after its owner deletes it; no-cache makes
    // browsers revalidate, which the ETag turns into a cheap 304.
    'cache-control': 'private, no-cache',
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    'content-security-policy': FILE_CSP,
  });
  const validators = { etag, lastModified: row.updatedAt };
  if (isNotModified(req.headers, validators)) return reply.code(304).send();

  const decision = rangeFor(req.headers, row.objectSize, validators);
  if (decision.kind === 'unsatisfiable') throw Errors.rangeNotSatisfiable(row.objectSize);
  const range = decision.kind === 'partial' ? { start: decision.start, end: decision.end } : undefined;
  let got;
  try {
    got = await store.get(row.storageKey, range);
  } catch (err) {
    if (err instanceof RangeNotSatisfiableError) {
      throw Errors.rangeNotSatisfiable(err.size);
    }
    // A row whose bytes are gone (deleted a moment ago): the file no longer exists.
    if (err instanceof ObjectNotFoundError) throw Errors.notFound('File');
    throw err;
  }
  reply.headers({
    'content-type': row.objectType,
    'content-disposition': contentDisposition(opts.attachment ? 'attachment' : 'inline', row.name),
  });
  if (got.range) {
    reply.code(206).headers({
      'content-range': contentRange(got.range, got.size),
      'content-length': String(got.range.end - got.range.start + 1),
    });
  } else {
    reply.code(200).header('content-length', String(got.size));
  }
  return reply.send(got.body);
}
