// Authentication per the contract's security schemes, run in onRequest (before body validation,
// so an anonymous caller learns nothing about the body's shape). Schemes are looked up by name;
// modules register verifiers for their schemes (bearerAuth here, bucketKey/authKey later).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Errors } from '../errors';

export type SchemeVerifier = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
export type SecurityRequirement = Record<string, string[]>[];

export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** Credentials that were not sent at all (as opposed to sent and wrong): see securityHook. */
const absentCredentials = new WeakSet<AppError>();

/** A 401 for a credential the request did not carry (its header is missing). */
export function missingCredential(message: string): AppError {
  const err = Errors.unauthorized(message);
  absentCredentials.add(err);
  return err;
}

/** The first value of a request header, or undefined when absent or empty. */
export function headerValue(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers[name];
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value : undefined;
}

/**
 * OR over requirement objects, AND inside one: the OpenAPI rule. Throws the first failure of a
 * credential that was sent (a wrong key says "Invalid API key" even when an alternative that
 * uses another header comes first), else the first missing credential of an alternative whose
 * first credentials passed (a good key without its token: "Missing bearer token"), else the first
 * failure.
 */
export function securityHook(requirement: SecurityRequirement, verifiers: Record<string, SchemeVerifier>) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    let first: unknown;
    let firstSent: unknown;
    let furthest: unknown;
    for (const alternative of requirement) {
      let passed = 0;
      try {
        for (const name of Object.keys(alternative)) {
          const verify = verifiers[name];
          if (!verify) throw Errors.notImplemented(`security scheme ${name}`);
          await verify(req, reply);
          passed += 1;
        }
        return;
      } catch (err) {
        first ??= err;
        if (!(err instanceof AppError && absentCredentials.has(err))) firstSent ??= err;
        else if (passed > 0) furthest ??= err;
      }
    }
    const chosen = firstSent ?? furthest ?? first;
    throw chosen instanceof AppError ? chosen : (chosen ?? Errors.unauthorized());
  };
}
