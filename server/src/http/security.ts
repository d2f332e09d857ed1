// Authentication per the contract's security schemes, run in onRequest (before body validation,
// so an anonymous caller learns nothing about the body's shape). Schemes are looked up by name;
// modules register verifiers for their schemes (bearerAuth here, bucketKey/authKey later).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Errors } from './errors';

export type SchemeVerifier = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
export type SecurityRequirement = Record<string, string[]>[];

export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** OR over requirement objects, AND inside one: the OpenAPI rule. Throws the first failure. */
export function securityHook(requirement: SecurityRequirement, verifiers: Record<string, SchemeVerifier>) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    let first: unknown;
    for (const alternative of requirement) {
      try {
        for (const name of Object.keys(alternative)) {
          const verify = verifiers[name];
          if (!verify) throw Errors.notImplemented(`security scheme ${name}`);
          await verify(req, reply);
        }
        return;
      } catch (err) {
        first ??= err;
      }
    }
    throw first instanceof AppError ? first : (first ?? Errors.unauthorized());
  };
}
