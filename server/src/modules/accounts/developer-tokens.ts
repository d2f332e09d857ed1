// Developer tokens: HS256 JWTs on the one JWT stack (platform/jwt.ts), signed with the platform
// secret's "developer-jwt" key, carrying typ "developer" (end-user tokens carry "enduser" and a key
// of their own project). Also app.jwt, as @fastify/jwt's decorator was (tests sign with it).
import { deriveKey } from '../../platform/crypto';
import type { Jwt, JwtPayload } from '../../platform/jwt';
import type { DeveloperClaims, TokenIssuer } from './accounts.service';

export const DEVELOPER_TOKEN_TTL_SECONDS = 7 * 24 * 3600;

export interface DeveloperTokens extends TokenIssuer {
  /** The payload, unverified; undefined when it is not a JWT. */
  decode<T = JwtPayload>(token: string): T | undefined;
}

export function createDeveloperTokens(secret: string, jwt: Jwt): DeveloperTokens {
  // The bytes @fastify/jwt signed with: the base64 text of the derived key, as UTF-8. Kept so
  // tokens issued before the one stack still verify.
  const key = Buffer.from(deriveKey(secret, 'developer-jwt').toString('base64'), 'utf8');
  return {
    sign: (claims, { expiresIn = DEVELOPER_TOKEN_TTL_SECONDS } = {}) => jwt.sign(claims, key, { expiresIn }),
    verify: (token) => jwt.verify<DeveloperClaims & JwtPayload>(token, () => key),
    decode: (token) => jwt.decode(token),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The developer-token issuer (was @fastify/jwt's decorator). */
    jwt: DeveloperTokens;
  }
}
