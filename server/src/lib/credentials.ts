// Rules shared by developer accounts and a project's end users.
import { Errors } from '../http/errors';

/** SPEC section 9: password minimum length. */
export const PASSWORD_MIN = 8;

/** The form an email is compared and stored unique in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkPassword(password: string, field = 'password'): void {
  if ([...password].length < PASSWORD_MIN) throw Errors.validation(`body/${field}: Password must be at least ${PASSWORD_MIN} characters`);
}
