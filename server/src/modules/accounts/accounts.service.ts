// The rules of developer accounts: sign-up, sign-in with optional TOTP, token validity and
// revocation, password reset and change, email verification. Depends on interfaces only.
import type { Clock } from '../../platform/clock';
import type { LookupCache } from '../../platform/lookup-cache';
import type { AccountEvents } from '../../platform/account-events';
import type { Mailer } from '../../platform/mailer';
import type { RateLimiter } from '../../platform/rate-limit';
import { randomToken, sha256, type PasswordHasher, type SecretBox } from '../../platform/crypto';
import { Errors } from '../../platform/errors';
import { WINDOW_LIMITS } from '../../platform/limits';
import {
  checkPassword,
  normalizeEmail,
  knownDevice,
  trustDevice,
  MFA_CHALLENGE_ATTEMPTS,
  MFA_FAILURE_POLICY,
  RESET_REQUEST_POLICY,
  SIGN_IN_POLICY,
  guardBuckets,
  isBurst,
} from '../sign-in';
import type { AccountsRepository } from './accounts.repository';
import type { AccountRow } from './accounts.tables';
import { matchTotp, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, totpUri } from './totp';
import { activityActor } from '../activity';

export interface DeveloperClaims {
  sub: string;
  /** Token version: a password change bumps the account's and refuses older tokens. */
  tv: number;
  typ: 'developer';
}

export interface TokenIssuer {
  /** expiresIn in seconds (7 days when left out). */
  sign(claims: DeveloperClaims | Record<string, unknown>, options?: { expiresIn?: number }): string;
  /** Rejects on a bad signature, another algorithm or expiry. */
  verify(token: string): Promise<DeveloperClaims>;
}

export interface AccountsServiceDeps {
  repo: AccountsRepository;
  passwords: PasswordHasher;
  tokens: TokenIssuer;
  secrets: SecretBox;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock: Clock;
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void };
  /** Accounts by id, kept in memory (platform/lookup-cache.ts): every developer call reads one. */
  lookups: Pick<LookupCache, 'get'>;
  events: Pick<AccountEvents, 'emit'>;
}

export const MFA_TEXT = {
  invalidCode: 'Invalid code. Please try again.',
  notFound: 'Email not found or invalid code.',
  noChallenge: 'Verification failed. Please try again.',
} as const;

const RESET_TTL_MS = 60 * 60 * 1000;
const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
const MFA_CHALLENGE_TTL_MS = 5 * 60 * 1000;
const TOKEN_TTL_SECONDS = 7 * 24 * 3600;
const REMEMBERED_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export type LoginResult = { kind: 'token'; token: string; deviceToken: string } | { kind: 'mfa'; mfaToken: string };

export class AccountsService {
  constructor(private readonly d: AccountsServiceDeps) {}

  private issue(account: Pick<AccountRow, 'id' | 'tokenVersion'>, remember = false): string {
    return this.d.tokens.sign({ sub: account.id, tv: account.tokenVersion, typ: 'developer' }, { expiresIn: remember ? REMEMBERED_TOKEN_TTL_SECONDS : TOKEN_TTL_SECONDS });
  }

  async register(input: { name: string; email: string; password: string }, ip: string): Promise<{ token: string; deviceToken: string }> {
    await this.d.rateLimiter.hit({ key: `register:ip:${ip}`, ...WINDOW_LIMITS.registerPerAddress });
    const name = input.name.trim();
    if (!name) throw Errors.validation('body/name must not be empty');
    const email = input.email.trim();
    checkPassword(input.password, 'password', { email, name });
    const passwordHash = await this.d.passwords.hash(input.password);
    const account = await this.d.repo.insert({ name, email, emailNormalized: normalizeEmail(email), passwordHash });
    if (!account) throw Errors.conflict('An account with this email already exists');
    // Verification mail is a courtesy here; a mail failure must not undo the sign-up.
    await this.sendVerification(account).catch(() => undefined);
    activityActor(account.id);
    return { token: this.issue(account), deviceToken: await this.trust(account.id) };
  }

  /** The id of the account's device behind a presented device token, if it is valid. */
  private async deviceOf(account: AccountRow | undefined, deviceToken: string | undefined): Promise<string | undefined> {
    if (!account || !deviceToken) return undefined;
    return knownDevice(this.d.repo, account.id, deviceToken, this.d.clock.now());
  }

  /** After a complete sign-in: the presented device token again (refreshed), or a new one. */
  private trust(accountId: string, presented?: string): Promise<string> {
    return trustDevice(this.d.repo, accountId, presented, this.d.clock.now());
  }

  async login(input: { email: string; password: string; remember?: boolean; device_token?: string }, ip: string): Promise<LoginResult> {
    const emailKey = normalizeEmail(input.email);
    const account = await this.d.repo.findByEmail(emailKey);
    const deviceId = await this.deviceOf(account, input.device_token);
    const guard = guardBuckets(SIGN_IN_POLICY, 'login', emailKey, ip, deviceId);
    // Counted before the password is checked, so parallel guesses can't slip past a limit.
    const ticket = await this.d.rateLimiter.attempt(guard.buckets);
    const ok = account ? await this.d.passwords.verify(input.password, account.passwordHash) : (await this.d.passwords.dummyVerify(input.password), false);
    if (!account || !ok) {
      const failures = guard.accountKey ? ticket.counts[guard.accountKey] : undefined;
      if (account && failures !== undefined && isBurst(failures))
        this.d.log?.warn({ accountId: account.id, failures, clientAddress: ip }, 'security: sign-in failures burst');
      throw Errors.invalidCredentials();
    }
    await ticket.succeeded(guard.clearOnSuccess);
    if (account.mfaEnabled) {
      const mfaToken = randomToken();
      await this.d.repo.createToken(account.id, 'mfa_challenge', sha256(mfaToken), new Date(this.d.clock.now().getTime() + MFA_CHALLENGE_TTL_MS), ip);
      return { kind: 'mfa', mfaToken };
    }
    activityActor(account.id);
    return { kind: 'token', token: this.issue(account, input.remember), deviceToken: await this.trust(account.id, input.device_token) };
  }

  /** The account behind a valid, unexpired, unrevoked token of an existing account. */
  async authenticate(token: string): Promise<AccountRow> {
    let claims: DeveloperClaims;
    try {
      claims = await this.d.tokens.verify(token);
    } catch {
      throw Errors.invalidToken();
    }
    if (claims.typ !== 'developer' || typeof claims.sub !== 'string') throw Errors.invalidToken();
    const account = await this.d.lookups.get(`account:${claims.sub}`, () => this.d.repo.findById(claims.sub), (a) => [`account:${a.id}`]);
    if (!account || account.tokenVersion !== claims.tv) throw Errors.invalidToken();
    return account;
  }

  /**
   * The second step of a sign-in. A code counts only against a valid challenge: the one named by
   * mfa_token, or without it the newest one opened from the same client address. Anyone else's
   * wrong codes change nothing. A challenge takes MFA_CHALLENGE_ATTEMPTS wrong codes and is then
   * used up (sign in again); wrong codes per account and address slow down like passwords do.
   */
  async verifyMfaLogin(
    input: { email: string; code: string; mfaToken?: string; deviceToken?: string },
    ip: string,
  ): Promise<{ token: string; deviceToken: string }> {
    await this.d.rateLimiter.hit({ key: `mfa:ip:${ip}`, ...WINDOW_LIMITS.mfaPerAddress });
    const account = await this.d.repo.findByEmail(normalizeEmail(input.email));
    if (!account || !account.mfaEnabled || !account.mfaSecretEnc) throw Errors.mfaFailed(MFA_TEXT.notFound);
    const now = this.d.clock.now();
    const challenge = await this.d.repo.claimChallengeAttempt(
      account.id,
      input.mfaToken ? { tokenHash: sha256(input.mfaToken) } : { clientAddress: ip },
      now,
      MFA_CHALLENGE_ATTEMPTS,
    );
    if (!challenge) throw Errors.mfaFailed(MFA_TEXT.noChallenge);
    let ticket;
    try {
      ticket = await this.d.rateLimiter.attempt([{ key: `mfa:account-address:${account.id}:${ip}`, ...MFA_FAILURE_POLICY }]);
    } catch (err) {
      await this.d.repo.unclaimChallengeAttempt(challenge.id);
      throw err;
    }
    if (!(await this.acceptSecondFactor(account, input.code))) {
      if (challenge.attempts >= MFA_CHALLENGE_ATTEMPTS) await this.d.repo.closeToken(challenge.id, now);
      throw Errors.mfaFailed(MFA_TEXT.notFound);
    }
    await ticket.succeeded([`mfa:account-address:${account.id}:${ip}`]);
    await this.d.repo.closeTokens(account.id, 'mfa_challenge', now);
    activityActor(account.id);
    return { token: this.issue(account), deviceToken: await this.trust(account.id, input.deviceToken) };
  }

  /** A TOTP code (each time step once) or an unused recovery code. */
  private async acceptSecondFactor(account: AccountRow, code: string, secretEnc = account.mfaSecretEnc): Promise<boolean> {
    if (!secretEnc) return false;
    const trimmed = code.replace(/\s/g, '');
    const secret = this.d.secrets.open(secretEnc);
    const step = await matchTotp(secret, trimmed, Math.floor(this.d.clock.now().getTime() / 1000));
    if (step !== undefined) return this.d.repo.claimTotpStep(account.id, step);
    if (secretEnc !== account.mfaSecretEnc) return false; // recovery codes only for an enabled MFA
    return this.d.repo.consumeRecoveryCode(account.id, sha256(normalizeRecoveryCode(code)), this.d.clock.now());
  }

  async toggleMfa(
    account: AccountRow,
    input: { action?: 'enroll' | 'enable' | 'disable'; mfa_code?: string },
  ): Promise<{ message: string; mfa_enabled: boolean; secret?: string; otpauth_url?: string; recovery_codes?: string[] }> {
    const action = input.action ?? (account.mfaEnabled ? 'disable' : input.mfa_code ? 'enable' : 'enroll');
    if (action === 'enroll') {
      if (account.mfaEnabled) throw Errors.conflict('Two-factor authentication is already enabled');
      const secret = newTotpSecret();
      await this.d.repo.update(account.id, { mfaPendingSecretEnc: this.d.secrets.seal(secret) }, this.d.clock.now());
      return { message: 'Scan the code with your authenticator app, then confirm with a code', mfa_enabled: false, secret, otpauth_url: totpUri(secret, account.email) };
    }
    if (!input.mfa_code) throw Errors.validation("body must have required property 'mfa_code'");
    const limit = { key: `mfa-toggle:account:${account.id}`, ...WINDOW_LIMITS.mfaToggleFailuresPerAccount };
    await this.d.rateLimiter.check(limit);
    if (action === 'enable') {
      if (account.mfaEnabled) throw Errors.conflict('Two-factor authentication is already enabled');
      if (!account.mfaPendingSecretEnc) throw Errors.badRequest('Start enrollment first (toggle-mfa without a code)');
      if (!(await this.acceptSecondFactor(account, input.mfa_code, account.mfaPendingSecretEnc))) {
        await this.d.rateLimiter.fail(limit);
        throw Errors.badRequest(MFA_TEXT.invalidCode);
      }
      const codes = newRecoveryCodes();
      await this.d.repo.replaceRecoveryCodes(account.id, codes.map((c) => sha256(normalizeRecoveryCode(c))));
      await this.d.repo.update(account.id, { mfaEnabled: true, mfaSecretEnc: account.mfaPendingSecretEnc, mfaPendingSecretEnc: null }, this.d.clock.now());
      return { message: 'Two-factor authentication enabled', mfa_enabled: true, recovery_codes: codes };
    }
    if (!account.mfaEnabled) throw Errors.conflict('Two-factor authentication is not enabled');
    if (!(await this.acceptSecondFactor(account, input.mfa_code))) {
      await this.d.rateLimiter.fail(limit);
      throw Errors.badRequest(MFA_TEXT.invalidCode);
    }
    await this.d.repo.update(account.id, { mfaEnabled: false, mfaSecretEnc: null, mfaPendingSecretEnc: null, mfaLastStep: null }, this.d.clock.now());
    await this.d.repo.replaceRecoveryCodes(account.id, []);
    await this.d.events.emit({ type: 'mfa_disabled', accountId: account.id, message: 'Two-factor authentication was turned off for your account' });
    return { message: 'Two-factor authentication disabled', mfa_enabled: false };
  }

  /**
   * Always resolves for a well-formed email; mails a link only when the account exists. Requests
   * are throttled like sign-ins, keyed by the e-mail whether or not it has an account, so a 429
   * says nothing about existence.
   */
  async forgotPassword(email: string, ip: string, deviceToken?: string): Promise<void> {
    const emailKey = normalizeEmail(email);
    const account = await this.d.repo.findByEmail(emailKey);
    const deviceId = await this.deviceOf(account, deviceToken);
    await this.d.rateLimiter.attempt(guardBuckets(RESET_REQUEST_POLICY, 'forgot', emailKey, ip, deviceId).buckets);
    if (!account) return;
    const token = randomToken();
    await this.d.repo.createToken(account.id, 'password_reset', sha256(token), new Date(this.d.clock.now().getTime() + RESET_TTL_MS));
    const link = `${this.d.publicUrl}/auth/reset-password/${token}`;
    await this.d.mailer.send({
      to: account.email,
      subject: 'Reset your Hostbase password',
      text: `Hi ${account.name},\n\nSomeone asked to reset the password of your Hostbase account. To choose a new password, open this link within 1 hour:\n\n${link}\n\nIf it wasn't you, ignore this mail; your password stays as it is.\n`,
    });
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const now = this.d.clock.now();
    // Checked before the link is used up, so a refused password leaves the link working.
    const holder = await this.d.repo.findByOpenToken('password_reset', sha256(token), now);
    if (!holder) throw Errors.badRequest('This reset link is invalid or has expired');
    checkPassword(password, 'password', { email: holder.email, name: holder.name });
    const accountId = await this.d.repo.consumeToken('password_reset', sha256(token), now);
    if (!accountId) throw Errors.badRequest('This reset link is invalid or has expired');
    await this.d.repo.setPassword(accountId, await this.d.passwords.hash(password), this.d.clock.now());
    await this.d.repo.closeTokens(accountId, 'password_reset', now);
    await this.d.repo.closeTokens(accountId, 'mfa_challenge', now);
    // The owner proved the mailbox: others' failures against the account no longer count.
    await this.d.rateLimiter.reset(guardBuckets(SIGN_IN_POLICY, 'login', holder.emailNormalized, '').accountKey!);
    activityActor(accountId);
  }

  async changePassword(account: AccountRow, current: string, next: string): Promise<string> {
    const limit = { key: `change-pass:account:${account.id}`, ...WINDOW_LIMITS.changePasswordFailuresPerAccount };
    await this.d.rateLimiter.check(limit);
    if (!(await this.d.passwords.verify(current, account.passwordHash))) {
      await this.d.rateLimiter.fail(limit);
      throw Errors.invalidCredentials('Current password is incorrect');
    }
    checkPassword(next, 'new_password', { email: account.email, name: account.name });
    const updated = await this.d.repo.setPassword(account.id, await this.d.passwords.hash(next), this.d.clock.now());
    return this.issue(updated!);
  }

  async sendVerification(account: AccountRow): Promise<'sent' | 'already'> {
    if (account.emailVerifiedAt) return 'already';
    await this.d.rateLimiter.hit({ key: `verify-mail:account:${account.id}`, ...WINDOW_LIMITS.verifyMailPerAccount });
    const token = randomToken();
    await this.d.repo.createToken(account.id, 'email_verify', sha256(token), new Date(this.d.clock.now().getTime() + VERIFY_TTL_MS));
    const link = `${this.d.publicUrl}/api/verify/${token}`;
    await this.d.mailer.send({
      to: account.email,
      subject: 'Verify your email for Hostbase',
      text: `Hi ${account.name},\n\nPlease confirm that ${account.email} is your address by opening this link within 24 hours:\n\n${link}\n`,
    });
    return 'sent';
  }

  /**
   * The link of a verification mail or of an address change (one link, two kinds of token). False
   * for an unknown, used or expired token; a conflict when the new address was taken meanwhile.
   */
  async confirmEmail(token: string): Promise<boolean> {
    const now = this.d.clock.now();
    const accountId = await this.d.repo.consumeToken('email_verify', sha256(token), now);
    if (accountId) {
      await this.d.repo.update(accountId, { emailVerifiedAt: now }, now);
      activityActor(accountId);
      return true;
    }
    const changed = await this.d.repo.applyEmailChange(sha256(token), now);
    if (changed === 'taken') throw Errors.conflict('An account with this email already exists');
    if (!changed) return false;
    activityActor(changed.account.id);
    // The old address hears of it: if the change wasn't its owner's doing, they know at once.
    await this.d.mailer.send({
      to: changed.previousEmail,
      subject: 'Your Hostbase email address was changed',
      text: `Hi ${changed.account.name},\n\nThe email address of your Hostbase account is now ${changed.account.email}. Sign-ins and mails use the new address from now on.\n\nIf you didn't make this change, reset your password at once and contact support.\n`,
    });
    return true;
  }

  /**
   * Starts a change of address: a link to the new address, which becomes the account's only when
   * the link is opened (so a typo can't lock anyone out, and nobody can claim an address they
   * can't read). Throttled like verification mails.
   */
  async requestEmailChange(account: AccountRow, email: string): Promise<void> {
    const normalized = normalizeEmail(email);
    if (normalized === account.emailNormalized) return;
    await this.d.rateLimiter.hit({ key: `verify-mail:account:${account.id}`, ...WINDOW_LIMITS.verifyMailPerAccount });
    const token = randomToken();
    const now = this.d.clock.now();
    await this.d.repo.createEmailChange(account.id, sha256(token), email.trim(), new Date(now.getTime() + VERIFY_TTL_MS), now);
    const link = `${this.d.publicUrl}/api/verify/${token}`;
    await this.d.mailer.send({
      to: email.trim(),
      subject: 'Confirm your new email for Hostbase',
      text: `Hi ${account.name},\n\nTo make ${email.trim()} the address of your Hostbase account, open this link within 24 hours:\n\n${link}\n\nUntil then your account keeps ${account.email}. If you didn't ask for this, ignore this mail.\n`,
    });
  }

  async pendingEmail(account: AccountRow): Promise<string | undefined> {
    return this.d.repo.pendingEmail(account.id, this.d.clock.now());
  }

  async updateNotifications(account: AccountRow, prefs: { email?: boolean; push?: boolean }): Promise<AccountRow> {
    const values = { ...(prefs.email !== undefined ? { notifyEmail: prefs.email } : {}), ...(prefs.push !== undefined ? { notifyPush: prefs.push } : {}) };
    if (Object.keys(values).length === 0) return account;
    return (await this.d.repo.update(account.id, values, this.d.clock.now()))!;
  }

  async updateName(account: AccountRow, name: string): Promise<AccountRow> {
    const trimmed = name.trim();
    if (!trimmed) throw Errors.validation('body/name must not be empty');
    return (await this.d.repo.update(account.id, { name: trimmed }, this.d.clock.now()))!;
  }

  async findById(id: string): Promise<AccountRow | undefined> {
    return this.d.repo.findById(id);
  }
}

export function publicAccount(a: AccountRow, pendingEmail?: string) {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    email_verified: a.emailVerifiedAt !== null,
    mfa_enabled: a.mfaEnabled,
    plan: a.plan,
    created_at: a.createdAt.toISOString(),
    notifications: { email: a.notifyEmail, push: a.notifyPush },
    ...(pendingEmail ? { pending_email: pendingEmail } : {}),
  };
}
