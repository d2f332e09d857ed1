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

/** Verifiers kept, one per secret (a rotated project secret leaves one behind until pushed out). */
const MAX_VERIFIERS = 1000;

type Verify = (token: string) => JwtPayload;

export function createJwt(clock: Clock): Jwt {
  const decoder = createDecoder();
  const completeDecoder = createDecoder({ complete: true });
  // One verifier, and so one secret KeyObject, per secret: making them was a share of every
  // verification. Time is checked here (exp, nbf) against the injected clock, since a fast-jwt
  // verifier fixes its clock when it is made.
  const verifiers = new Map<string, Verify>();
  const verifierFor = (key: Buffer): Verify => {
    const id = key.toString('base64');
    let verifier = verifiers.get(id);
    if (verifier) return verifier;
    verifier = createVerifier({ key, algorithms: [JWT_ALGORITHM], checkTyp: 'JWT', requiredClaims: ['exp'], ignoreExpiration: true, ignoreNotBefore: true, cache: false }) as Verify;
    if (verifiers.size >= MAX_VERIFIERS) verifiers.delete(verifiers.keys().next().value as string);
    verifiers.set(id, verifier);
    return verifier;
  };
  return {
    sign(payload, key, { expiresIn }) {
      if (!Number.isFinite(expiresIn)) throw new Error('expiresIn must be a finite number of seconds');
      // fast-jwt fixes the time and the lifetime when the signer is made: one per token (cheap: no cache, no parsing).
      return createSigner({ key, algorithm: JWT_ALGORITHM, expiresIn: expiresIn * 1000, clockTimestamp: clock.now().getTime() })(payload);
    },
    async verify<T extends JwtPayload>(token: string, keyFor: KeyFor): Promise<T> {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw new JwtError('malformed', 'The token is malformed.');
      let payload: T;
      try {
        // The key is chosen from the token's unverified header and payload, then the token is checked with it.
        const { header, payload: claims } = completeDecoder(token) as { header: JwtHeader; payload: JwtPayload };
        payload = verifierFor(await keyFor({ header, payload: claims }))(token) as T;
      } catch (e) {
        throw refusal(e);
      }
      const now = clock.now().getTime();
      // RFC 7519 4.1.4 and 4.1.5: refused on or after exp, and before nbf.
      if (typeof payload.exp !== 'number') throw new JwtError('claims', 'The exp claim must be a number.');
      if (payload.exp * 1000 <= now) throw new JwtError('expired', 'The token has expired.');
      if (payload.nbf !== undefined) {
        if (typeof payload.nbf !== 'number') throw new JwtError('claims', 'The nbf claim must be a number.');
        if (payload.nbf * 1000 > now) throw new JwtError('not_yet_valid', 'The token is not active yet.');
      }
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
