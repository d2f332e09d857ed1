// Device tokens (so that nobody can lock a developer out by failing to sign in as them): after a complete sign-in the API hands the console an opaque token for
// that account; sent back with later sign-ins (and reset requests) of the same account, it lets
// this browser in even when others' failed guesses filled the account's ceiling. Kept in
// localStorage per e-mail (one browser may sign in to several accounts); signing out keeps it.

export const DEVICE_TOKENS_KEY = 'device_tokens';

function read(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DEVICE_TOKENS_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

const keyOf = (email: string) => email.trim().toLowerCase();

/** The device token this browser holds for the account, as a body field to spread into a request. */
export function deviceTokenField(email: string | null | undefined): { device_token?: string } {
  if (!email) return {};
  const token = read()[keyOf(email)];
  return typeof token === 'string' && token ? { device_token: token } : {};
}

export function keepDeviceToken(email: string | null | undefined, token: string | undefined): void {
  if (!email || !token) return;
  try {
    const all = read();
    all[keyOf(email)] = token;
    localStorage.setItem(DEVICE_TOKENS_KEY, JSON.stringify(all));
  } catch {
    // Storage may be unavailable (private mode); the sign-in still works without it.
  }
}
