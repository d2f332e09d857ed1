// End-user access tokens: HS256 JWTs on the one JWT stack (platform/jwt.ts), signed with a key of
// their own project, derived from the platform secret (HKDF, purpose "enduser-jwt:<projectId>").
// A token of project A can't verify under project B's key, nor under the developer key (purpose
// "developer-jwt"), and it carries typ "enduser" where developer tokens carry "developer".
// The format is unchanged from the hand-written signer this replaces (same header, same claims in
// the same order), so tokens issued before still verify.
import { deriveKey } from '../../platform/crypto';
import type { Jwt } from '../../platform/jwt';

export interface EndUserClaims {
  sub: string;
  pid: string;
  typ: 'enduser';
  /** The user's token version: a password reset bumps it and refuses older tokens. */
  tv: number;
  iat: number;
  exp: number;
}

export interface EndUserTokens {
  readonly ttlSeconds: number;
  sign(claims: { sub: string; pid: string; tv: number }): string;
  /** The claims of a well-signed, unexpired end-user token of this project; undefined otherwise. */
  verify(token: string, projectId: string): Promise<EndUserClaims | undefined>;
}

const KEY_CACHE_MAX = 10_000;

export function createEndUserTokens(secret: string, jwt: Jwt, ttlSeconds = 3600): EndUserTokens {
  // HKDF is cheap but not free; projects are few next to requests.
  const keys = new Map<string, Buffer>();
  const keyOf = (projectId: string) => {
    let key = keys.get(projectId);
    if (!key) {
      if (keys.size >= KEY_CACHE_MAX) keys.clear();
      key = deriveKey(secret, `enduser-jwt:${projectId}`);
      keys.set(projectId, key);
    }
    return key;
  };

  return {
    ttlSeconds,
    sign({ sub, pid, tv }) {
      return jwt.sign({ sub, pid, typ: 'enduser', tv }, keyOf(pid), { expiresIn: ttlSeconds });
    },
    async verify(token, projectId) {
      let claims: Partial<EndUserClaims>;
      try {
        // The key is the project's the request is for (its x-api-key), never one the token names.
        claims = await jwt.verify<Partial<EndUserClaims>>(token, () => keyOf(projectId));
      } catch {
        return undefined;
      }
      if (claims.typ !== 'enduser' || claims.pid !== projectId) return undefined;
      if (typeof claims.sub !== 'string' || typeof claims.tv !== 'number' || typeof claims.exp !== 'number') return undefined;
      return claims as EndUserClaims;
    },
  };
}
