// The token of a signed URL to a stored file: "{expiry}.{caller}.{signature}", where expiry is in
// Unix seconds, caller is "d" (the developer: the console or the secret key alone), "k" (the
// publishable key alone) or an end user's id, and the signature an HMAC-SHA256 (a key derived from
// the platform secret for this purpose alone) over the project, the file, the expiry, the caller
// and, for an end user, their token version. Nothing is stored: the token says whom to check at
// download time (signed-urls.ts), and the version makes a password change end the user's URLs.
import crypto from 'node:crypto';
import { deriveKey, safeEqual } from '../../platform/crypto';

/** Whom a signed URL was made for. */
export type SignedUrlCaller = { kind: 'developer' } | { kind: 'key' } | { kind: 'user'; userId: string; tokenVersion: number };

/** As openapi.yaml's downloadSignedUrl `token` pattern. */
const TOKEN = /^([0-9]{1,12})\.(d|k|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

/** A token as read from a URL, before its signature is checked. */
export interface TokenClaims {
  /** Unix seconds. */
  expiresAt: number;
  /** "d", "k" or an end user's id. */
  caller: string;
  signature: string;
}

export class SignedUrlSigner {
  private readonly key: Buffer;

  constructor(platformSecret: string) {
    this.key = deriveKey(platformSecret, 'storage-signed-url');
  }

  token(projectId: string, objectId: string, caller: SignedUrlCaller, expiresAt: number): string {
    const who = caller.kind === 'developer' ? 'd' : caller.kind === 'key' ? 'k' : caller.userId;
    const version = caller.kind === 'user' ? caller.tokenVersion : 0;
    return `${expiresAt}.${who}.${this.mac(projectId, objectId, expiresAt, who, version).toString('base64url')}`;
  }

  /** The token's parts, or undefined when it is not one (unsigned yet: see verify). */
  read(token: string): TokenClaims | undefined {
    const m = TOKEN.exec(token);
    return m ? { expiresAt: Number(m[1]), caller: m[2]!, signature: m[3]! } : undefined;
  }

  /** Whether the claims were signed by this platform for this file (tokenVersion: the end user's now; 0 otherwise). */
  verify(claims: TokenClaims, projectId: string, objectId: string, tokenVersion = 0): boolean {
    // Compared as text: decoding would accept another last character that differs only in the
    // bits base64url leaves over, so a changed signature could pass.
    return safeEqual(claims.signature, this.mac(projectId, objectId, claims.expiresAt, claims.caller, tokenVersion).toString('base64url'));
  }

  private mac(projectId: string, objectId: string, expiresAt: number, who: string, tokenVersion: number): Buffer {
    return crypto.createHmac('sha256', this.key).update(['hostbase-signed-url-v1', projectId, objectId, expiresAt, who, tokenVersion].join('\n')).digest();
  }
}
