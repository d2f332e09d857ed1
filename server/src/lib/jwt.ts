// The one JWT stack for every token the platform issues (developer tokens, end users' access
// tokens), on fast-jwt. One algorithm both ways: HS256; a token whose header names any other
// ("none", HS512, RS256…) is refused before its signature is looked at. The caller picks the key
// at verification time (keyFor: per project for end users), and the time comes from the injected
// Clock, so tests move it and expiry follows. The token format is fast-jwt's: header
// {"alg":"HS256","typ":"JWT"}, the payload as given followed by iat and exp (seconds).
import { createDecoder, createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { Clock } from './clock';

export const JWT_ALGORITHM = 'HS256';
/** Ours are a few hundred characters; anything longer is refused before it is parsed. */
export const MAX_TOKEN_LENGTH = 2048;

export type JwtPayload = Record<string, unknown>;
export interface JwtHeader {
  alg: string;
  typ?: string;
  [name: string]: unknown;
}
/** The key to check a token with; it sees the token's header and payload, not yet verified. */
export type KeyFor = (token: { header: JwtHeader; payload: JwtPayload }) => Buffer | Promise<Buffer>;

export interface JwtSignOptions {
  /** Seconds from now (the Clock) to exp; negative makes an already expired token. */
  expiresIn: number;
}

export type JwtRefusal = 'malformed' | 'algorithm' | 'signature' | 'expired' | 'not_yet_valid' | 'claims';

export class JwtError extends Error {
  constructor(
    readonly reason: JwtRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'JwtError';
  }
}

export interface Jwt {
  /** A token over payload plus iat (now) and exp (now + expiresIn), signed HS256 with key. */
  sign(payload: object, key: Buffer, options: JwtSignOptions): string;
  /**
   * The payload of a token signed HS256 under keyFor's key, with an exp the clock has not reached
   * (and an nbf it has, when present). Rejects with a JwtError otherwise.
   */
  verify<T extends JwtPayload = JwtPayload>(token: string, keyFor: KeyFor): Promise<T>;
  /** The payload, unverified (tests, tools); undefined when the token is not a JWT. */
  decode<T = JwtPayload>(token: string): T | undefined;
}

const REFUSALS: Partial<Record<string, JwtRefusal>> = {
  [TokenError.codes.invalidAlgorithm]: 'algorithm',
  [TokenError.codes.invalidSignature]: 'signature',
  [TokenError.codes.missingSignature]: 'signature',
  [TokenError.codes.expired]: 'expired',
  [TokenError.codes.inactive]: 'not_yet_valid',
  [TokenError.codes.missingRequiredClaim]: 'claims',
  [TokenError.codes.invalidClaimType]: 'claims',
  [TokenError.codes.invalidClaimValue]: 'claims',
};

const refusal = (e: unknown): JwtError => {
  if (e instanceof JwtError) return e;
  const code = e instanceof TokenError ? e.code : undefined;
  return new JwtError((code && REFUSALS[code]) || 'malformed', e instanceof Error ? e.message : 'The token is invalid.');
};

export function createJwt(clock: Clock): Jwt {
  const decoder = createDecoder();
  return {
    sign(payload, key, { expiresIn }) {
      if (!Number.isFinite(expiresIn)) throw new Error('expiresIn must be a finite number of seconds');
      // fast-jwt fixes the time and the lifetime when the signer is made: one per token (cheap: no cache, no parsing).
      return createSigner({ key, algorithm: JWT_ALGORITHM, expiresIn: expiresIn * 1000, clockTimestamp: clock.now().getTime() })(payload);
    },
    async verify<T extends JwtPayload>(token: string, keyFor: KeyFor): Promise<T> {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw new JwtError('malformed', 'The token is malformed.');
      const now = clock.now().getTime();
      const verifier = createVerifier({
        key: async ({ header, payload }: { header: Record<string, unknown>; payload: unknown }) => keyFor({ header: header as JwtHeader, payload: payload as JwtPayload }),
        algorithms: [JWT_ALGORITHM],
        checkTyp: 'JWT',
        requiredClaims: ['exp'],
        clockTimestamp: now,
        cache: false,
      });
      let payload: T;
      try {
        payload = (await verifier(token)) as T;
      } catch (e) {
        throw refusal(e);
      }
      // RFC 7519 4.1.4: refused on or after exp (fast-jwt still accepts its very millisecond).
      if ((payload.exp as number) * 1000 <= now) throw new JwtError('expired', 'The token has expired.');
      return payload;
    },
    decode<T>(token: string): T | undefined {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return undefined;
      try {
        return decoder(token) as T;
      } catch {
        return undefined;
      }
    },
  };
}
