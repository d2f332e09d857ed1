// End-user access tokens: HS256 JWTs signed with a key of their own project, derived from the
// platform secret (HKDF, purpose "enduser-jwt:<projectId>"). A token of project A can't verify
// under project B's key, nor under the developer key (purpose "developer-jwt"), and it carries
// typ "enduser" where developer tokens carry "developer".
//
// Written on node:crypto rather than a JWT library on purpose: the key is chosen per project at
// verification time, the time comes from the injected Clock (tests move it), and exactly one
// algorithm is accepted, so there is no "alg" to negotiate.
import crypto from 'node:crypto';
import { deriveKey } from '../../lib/crypto';
import type { Clock } from '../../lib/clock';

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
  verify(token: string, projectId: string): EndUserClaims | undefined;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const KEY_CACHE_MAX = 10_000;

export function createEndUserTokens(secret: string, clock: Clock, ttlSeconds = 3600): EndUserTokens {
  // HKDF is cheap but not free; projects are few next to requests.
  const keys = new Map<string, Buffer>();
  const keyFor = (projectId: string) => {
    let key = keys.get(projectId);
    if (!key) {
      if (keys.size >= KEY_CACHE_MAX) keys.clear();
      key = deriveKey(secret, `enduser-jwt:${projectId}`);
      keys.set(projectId, key);
    }
    return key;
  };
  const mac = (key: Buffer, signingInput: string) => crypto.createHmac('sha256', key).update(signingInput).digest();

  return {
    ttlSeconds,
    sign({ sub, pid, tv }) {
      const iat = Math.floor(clock.now().getTime() / 1000);
      const claims: EndUserClaims = { sub, pid, typ: 'enduser', tv, iat, exp: iat + ttlSeconds };
      const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      return `${input}.${mac(keyFor(pid), input).toString('base64url')}`;
    },
    verify(token, projectId) {
      if (token.length > 2048) return undefined;
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      const [header, payload, signature] = parts;
      // Only our exact header: HS256, nothing else (no "none", no key ids, no embedded keys).
      if (header !== HEADER) return undefined;
      const expected = mac(keyFor(projectId), `${header}.${payload}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
      let claims: Partial<EndUserClaims>;
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return undefined;
      }
      if (!claims || claims.typ !== 'enduser' || claims.pid !== projectId) return undefined;
      if (typeof claims.sub !== 'string' || typeof claims.tv !== 'number' || typeof claims.exp !== 'number') return undefined;
      if (claims.exp <= Math.floor(clock.now().getTime() / 1000)) return undefined;
      return claims as EndUserClaims;
    },
  };
}
