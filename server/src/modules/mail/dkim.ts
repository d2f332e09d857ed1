// DKIM keys the platform generates per domain: RSA 2048, the private key as PKCS#8 PEM (sealed
// before it is stored), the public key as base64 SPKI DER for the p= tag of the DNS record.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPair = promisify(crypto.generateKeyPair);

export interface DkimKey {
  privateKeyPem: string;
  /** Base64 SPKI DER: the DNS record's p= value. */
  publicKey: string;
}

export async function generateDkimKey(): Promise<DkimKey> {
  const { privateKey, publicKey } = await generateKeyPair('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKey: publicKey.toString('base64') };
}

/** The TXT value published at {selector}._domainkey.{domain}. */
export const dkimRecordValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;

/** A selector named after the month the key was made ("hb202611"): a rotated key gets a new one. */
export const dkimSelector = (now: Date) => `hb${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;

/** The tags of a DKIM record ("v=DKIM1; k=rsa; p=..."), names lower-cased, whitespace removed. */
export function dkimTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}
