// Session keys in browser storage (SPEC section 3: email and token in local storage).

export const TOKEN_KEY = 'token';
export const EMAIL_KEY = 'email';
export const MFA_EMAIL_KEY = 'mfa_email';
export const MFA_TOKEN_KEY = 'mfa_token';

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const getToken = () => safe(() => localStorage.getItem(TOKEN_KEY), null);
export const getEmail = () => safe(() => localStorage.getItem(EMAIL_KEY), null);

export function setSession(token: string, email?: string): void {
  safe(() => {
    localStorage.setItem(TOKEN_KEY, token);
    if (email) localStorage.setItem(EMAIL_KEY, email);
  }, undefined);
}

export function setToken(token: string): void {
  safe(() => localStorage.setItem(TOKEN_KEY, token), undefined);
}

export function clearToken(): void {
  safe(() => localStorage.removeItem(TOKEN_KEY), undefined);
}

export function signOut(): void {
  safe(() => {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(EMAIL_KEY);
    localStorage.removeItem(MFA_EMAIL_KEY);
    sessionStorage.removeItem(MFA_TOKEN_KEY);
  }, undefined);
}

export function setMfaPending(email: string, mfaToken?: string): void {
  safe(() => {
    localStorage.setItem(MFA_EMAIL_KEY, email);
    if (mfaToken) sessionStorage.setItem(MFA_TOKEN_KEY, mfaToken);
    else sessionStorage.removeItem(MFA_TOKEN_KEY);
  }, undefined);
}

export function getMfaPending(): { email: string | null; mfaToken: string | null } {
  return {
    email: safe(() => localStorage.getItem(MFA_EMAIL_KEY), null),
    mfaToken: safe(() => sessionStorage.getItem(MFA_TOKEN_KEY), null),
  };
}

export function clearMfaPending(): void {
  safe(() => {
    localStorage.removeItem(MFA_EMAIL_KEY);
    sessionStorage.removeItem(MFA_TOKEN_KEY);
  }, undefined);
}
