// `hostbase login` and `hostbase logout`: the developer's sign-in, by password (and a two-factor
// code when the account has it on) or by a token pasted with --token (from another machine's
// sign-in, for CI), kept in the user's config folder.
import { apiBase, call, platformUrl } from '../api.js';
import { forgetCredentials, readCredentials, writeCredentials } from '../credentials.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';
import { prompter } from '../prompt.js';

export interface LoginOptions {
  url?: string;
  email?: string;
  token?: string;
}

export async function login(o: LoginOptions, out: Output): Promise<void> {
  const url = platformUrl(o.url);
  if (o.token !== undefined) return loginWithToken(url, o.token, o.email, out);
  const p = prompter();
  try {
    const email = o.email ?? (await p.ask('Email: '));
    const password = process.env.HOSTBASE_PASSWORD || (await p.ask('Password: ', true));
    const before = readCredentials();
    const device = before?.email === email && apiBase(before.url) === apiBase(url) ? before.device_token : undefined;
    const first = await call<{ message: string; token?: string; mfa_token?: string; device_token?: string }>(url, '/verify_user', {
      json: { email, password, ...(device ? { device_token: device } : {}) },
    });
    let answer: { token?: string; device_token?: string } = first;
    if (first.message === 'mfa') {
      const code = process.env.HOSTBASE_MFA_CODE || (await p.ask('Two-factor code (or a recovery code): '));
      answer = await call<{ token: string; device_token?: string }>(url, '/verifyMFACode', {
        json: { email, mfa_code: code, ...(first.mfa_token ? { mfa_token: first.mfa_token } : {}), ...(device ? { device_token: device } : {}) },
      });
    }
    if (!answer.token) throw new CliError('Sign-in failed: no token in the answer.');
    const file = writeCredentials({ url, email, token: answer.token, device_token: answer.device_token ?? device });
    out.result({ url, email, credentials: file }, () => out.info(`Signed in to ${url} as ${email} (token stored in ${file}).`));
  } finally {
    p.close();
  }
}

/** A pasted token is checked with the platform before it is kept. */
async function loginWithToken(url: string, token: string, email: string | undefined, out: Output): Promise<void> {
  const value = token.trim();
  if (!value) throw new CliError('--token needs the token (or set HOSTBASE_TOKEN for one command).', 2);
  try {
    await call(url, '/verify-token', { json: { token: value } });
  } catch (err) {
    if (err instanceof CliError && err.exitCode === 1) throw new CliError(`That token is not a valid sign-in for ${url} (${err.message}).`);
    throw err;
  }
  const file = writeCredentials({ url, email: email ?? '', token: value });
  out.result({ url, email: email ?? null, credentials: file }, () => out.info(`Signed in to ${url} with the token (stored in ${file}).`));
}

export function logout(out: Output): void {
  const had = forgetCredentials();
  out.result({ signed_out: had }, () => out.info(had ? 'Signed out: the stored token is deleted.' : 'Not signed in.'));
}
