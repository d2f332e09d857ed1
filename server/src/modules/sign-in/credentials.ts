// Rules shared by developer accounts and a project's end users: one password check on every path
// (register, reset, change, end-user sign-up, reset and console-added users), after NIST SP
// 800-63B 5.1.1.2: a minimum length, no commonly used password, nothing built from the user's own
// e-mail address or name. No composition rules (they make passwords no harder to guess).
import type { dictionary as Dictionary } from '@zxcvbn-ts/language-common';
import { Errors } from '../../platform/errors';
import { PASSWORD_MIN } from '../../../../shared/rules';

/** SPEC section 9: password minimum length (NewPassword's minLength in openapi.yaml). */
export { PASSWORD_MIN };
/** How many of the most common passwords are refused. */
export const COMMON_PASSWORDS_REFUSED = 10_000;
/** A piece of the e-mail's local part or of the name shorter than this is not looked for. */
export const PERSONAL_PART_MIN = 3;

export const PASSWORD_TEXT = {
  tooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  tooCommon: 'Password is too common; choose one that is harder to guess',
  personal: 'Password must not contain your email address or name',
  personalEmail: 'Password must not contain your email address',
} as const;

/** The form an email is compared and stored unique in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

let common: Set<string> | undefined;
/**
 * The 10,000 most used passwords of @zxcvbn-ts/language-common's list (ordered by frequency,
 * lower case), loaded on first use. The package is required here, not imported at the top: its
 * dictionaries (~2.4 MB of heap) then wait for the first password check instead of every start
 * (the embedded default should start small).
 */
function commonPasswords(): Set<string> {
  if (!common) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { dictionary } = require('@zxcvbn-ts/language-common') as { dictionary: typeof Dictionary };
    common = new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_REFUSED));
  }
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** The lower-case strings a password must not contain: the e-mail, its local part and its pieces, the name and its words. */
export function personalParts(who: { email?: string; name?: string }): string[] {
  const parts = new Set<string>();
  const add = (s: string) => {
    const v = s.toLowerCase();
    if ([...v].length >= PERSONAL_PART_MIN) parts.add(v);
  };
  if (who.email) {
    const email = normalizeEmail(who.email);
    add(email);
    const local = email.slice(0, Math.max(0, email.lastIndexOf('@'))) || email;
    add(local);
    for (const piece of local.split(/[^\p{L}\p{N}]+/u)) add(piece);
  }
  if (who.name) {
    const name = who.name.trim();
    add(name.replace(/\s+/g, ''));
    for (const word of name.split(/[^\p{L}\p{N}]+/u)) add(word);
  }
  return [...parts];
}

export interface PasswordPolicy {
  /** Refuse the most common passwords and those containing the e-mail or name (default true). */
  blockGuessable: boolean;
}
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { blockGuessable: true };

/**
 * Throws a 400 naming the field: "body/password: Password must be at least 8 characters", then
 * (under the default policy) too common, then containing the e-mail's local part or the name.
 */
export function checkPassword(
  password: string,
  field = 'password',
  who: { email?: string; name?: string } = {},
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): void {
  if ([...password].length < PASSWORD_MIN) throw Errors.validation(`body/${field}: ${PASSWORD_TEXT.tooShort}`);
  if (!policy.blockGuessable) return;
  if (isCommonPassword(password)) throw Errors.validation(`body/${field}: ${PASSWORD_TEXT.tooCommon}`);
  const lower = password.toLowerCase();
  if (personalParts(who).some((part) => lower.includes(part)))
    throw Errors.validation(`body/${field}: ${who.name ? PASSWORD_TEXT.personal : PASSWORD_TEXT.personalEmail}`);
}
