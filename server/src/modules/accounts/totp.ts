// TOTP (RFC 6238: 6 digits, 30 s steps) via otplib, and recovery codes.
import crypto from 'node:crypto';

/**
 * otplib (and its crypto plugins), required at the first two-factor call rather than at start:
 * most sign-ins never reach it, and the embedded default should start small.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const otplib = () => require('otplib') as typeof import('otplib');

export const TOTP_PERIOD = 30;

export function newTotpSecret(): string {
  return otplib().generateSecret();
}

export function totpUri(secret: string, email: string): string {
  return otplib().generateURI({ issuer: 'Hostbase', label: email, secret });
}

/** The time step the code matched (±1 step for clock drift), or undefined. */
export async function matchTotp(secret: string, code: string, epochSeconds: number): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined;
  const result = await otplib().verify({ secret, token: code, epoch: epochSeconds, epochTolerance: TOTP_PERIOD });
  if (!result.valid) return undefined;
  return (result as { timeStep: number }).timeStep;
}

/** Ten codes like "7kq4-m2xd-9p"; shown once, stored hashed. */
export function newRecoveryCodes(count = 10): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: count }, () => {
    const bytes = crypto.randomBytes(10);
    const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 10)}`;
  });
}

export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[^a-z0-9]/g, '');
}
