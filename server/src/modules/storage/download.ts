// Serving a stored file over HTTP: streamed, conditional (ETag / If-None-Match, Last-Modified),
// ranged (206 / 416), and boxed in so that a user's HTML or SVG can't act on our origin: a CSP
// sandbox (no script, no same-origin) plus nosniff, so a browser never reinterprets the type.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors';
import { ObjectNotFoundError, RangeNotSatisfiableError, servedRange, type ByteRange, type ObjectStore } from './object-store';
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
  if (notModified(req, etag, row.updatedAt)) return reply.code(304).send();

  const range = requestedRange(req, etag, row.objectSize);
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
      'content-range': `bytes ${got.range.start}-${got.range.end}/${got.size}`,
      'content-length': String(got.range.end - got.range.start + 1),
    });
  } else {
    reply.code(200).header('content-length', String(got.size));
  }
  return reply.send(got.body);
}

/** RFC 9110 13.1.2: If-None-Match (weak comparison) wins over If-Modified-Since. */
function notModified(req: FastifyRequest, etag: string, updatedAt: Date): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    if (inm.trim() === '*') return true;
    return inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  }
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(updatedAt.getTime() / 1000) * 1000 <= since;
}

/**
 * The one range asked for, or undefined to send the whole file: no header, a syntax we don't
 * serve (several ranges), or an If-Range that no longer matches. Throws 416 when unsatisfiable.
 */
function requestedRange(req: FastifyRequest, etag: string, size: number): ByteRange | undefined {
  const header = req.headers.range;
  if (!header) return undefined;
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && String(ifRange).trim() !== etag) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let range: ByteRange;
  if (m[1] === '') {
    // Suffix: the last n bytes.
    const n = Number(m[2]);
    range = n === 0 ? { start: size, end: size } : { start: Math.max(0, size - n), end: size - 1 };
  } else {
    range = { start: Number(m[1]), end: m[2] === '' ? size - 1 : Number(m[2]) };
  }
  try {
    return servedRange(range, size);
  } catch (err) {
    if (err instanceof RangeNotSatisfiableError) {
      throw Errors.rangeNotSatisfiable(size);
    }
    throw err;
  }
}
