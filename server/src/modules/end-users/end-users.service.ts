// The rules of a project's end users: console management (list, add, delete, reset mail,
// settings) and the app-side auth API (sign-up, sign-in, refresh with rotation and reuse
// detection, sign-out, password reset, email verification). Depends on interfaces only.
import crypto from 'node:crypto';
import type { Clock } from '../../platform/clock';
import type { LookupCache } from '../../platform/lookup-cache';
import type { ProjectMailers } from '../mail';
import type { Limit, RateLimiter } from '../../platform/rate-limit';
import { WINDOW_LIMITS } from '../../platform/limits';
import { randomToken, sha256, type PasswordHasher } from '../../platform/crypto';
import { Errors } from '../../platform/errors';
import { checkPassword, normalizeEmail, knownDevice, trustDevice, RESET_REQUEST_POLICY, SIGN_IN_POLICY, guardBuckets, isBurst } from '../sign-in';
import * as sharedRules from '../../../../shared/rules';
import type { ProjectRow } from '../projects';
import type { AuthSettings, EndUsersRepository } from './end-users.repository';
import type { EndUserRow } from './end-users.tables';
import type { EndUserTokens } from './end-user-tokens';
import { monthStart, type PlanLimitGuard } from '../plans';
import type { SignInRecorder } from '../usage';

export const PAGE_SIZE = 100;
const RESET_TTL_MS = 60 * 60 * 1000;
const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Fixed-window limits (platform/limits.ts) by the name their keys carry. */
export const LIMITS = {
  signUpPerIp: WINDOW_LIMITS.endUserSignUpPerAddress,
  resetPerIp: WINDOW_LIMITS.endUserResetPerAddress,
  verifyMailPerUser: WINDOW_LIMITS.endUserVerifyMailPerUser,
  consoleResetPerUser: WINDOW_LIMITS.endUserConsoleResetPerUser,
} as const;

export interface EndUsersServiceDeps {
  repo: EndUsersRepository;
  passwords: PasswordHasher;
  tokens: EndUserTokens;
  /** Per project: from the platform, or from the project's verified domain (smtp/project-mailer.ts). */
  mailers: ProjectMailers;
  rateLimiter: RateLimiter;
  clock: Clock;
  publicUrl: string;
  log?: { warn(obj: object, msg: string): void };
  /** End users by id, kept in memory (platform/lookup-cache.ts). */
  lookups: Pick<LookupCache, 'get'>;
  /** The plan's monthly active users, across the owner's projects (plans/plan-limits.ts). */
  limits?: PlanLimitGuard;
  /** Told of every session issued (sign-up, sign-in, refresh): the monthly active users (usage/active-users.ts). */
  signedIn?: SignInRecorder;
}

export interface EndUserSession {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
  user: ReturnType<typeof endUserView>;
  device_token?: string;
}

export const INVALID_REFRESH = 'Invalid refresh token';

export class EndUsersService {
  constructor(private readonly d: EndUsersServiceDeps) {}

  private now(): Date {
    return this.d.clock.now();
  }

  private limit(name: keyof typeof LIMITS, project: Pick<ProjectRow, 'id'>, who: string): Limit {
    return { key: `enduser-${name}:${project.id}:${who}`, ...LIMITS[name] };
  }

  // ================================================================== console
  async list(project: ProjectRow, page = 1) {
    const [users, total] = await Promise.all([this.d.repo.list(project.id, PAGE_SIZE, (page - 1) * PAGE_SIZE), this.d.repo.count(project.id)]);
    return {
      users: users.map(consoleUserView),
      total,
      page,
      page_size: PAGE_SIZE,
      next_page: page * PAGE_SIZE < total ? page + 1 : null,
    };
  }

  async add(project: ProjectRow, input: { email: string; password: string }): Promise<EndUserRow> {
    return this.create(project, input);
  }

  private async create(project: ProjectRow, input: { email: string; password: string }, lastLogin?: Date): Promise<EndUserRow> {
    const email = input.email.trim();
    await this.checkPassword(project.id, input.password, email);
    const passwordHash = await this.d.passwords.hash(input.password);
    const values = { projectId: project.id, email, emailNormalized: normalizeEmail(email), passwordHash, lastLogin };
    // A sign-up is a sign-in: one more active user this month.
    const user = lastLogin && this.d.limits
      ? await this.d.limits.within(project.ownerId, 'monthly_active_users', this.d.limits.counted('monthly_active_users', project.ownerId, monthStart(lastLogin)), (tx) => this.d.repo.insert(values, tx), 1, project.id)
      : await this.d.repo.insert(values);
    if (!user) throw Errors.conflict('A user with this email already exists in this project');
    return user;
  }

  /** The project's user by id; when an email is given too it must be that user's. */
  private async requireUser(project: ProjectRow, userId: string, email?: string): Promise<EndUserRow> {
    const user = await this.d.repo.findById(project.id, userId);
    if (!user) throw Errors.notFound('User');
    if (email !== undefined && normalizeEmail(email) !== user.emailNormalized) throw Errors.validation('body/email does not match the user with this user_id');
    return user;
  }

  async remove(project: ProjectRow, userId: string, email?: string): Promise<void> {
    const user = await this.requireUser(project, userId, email);
    if (!(await this.d.repo.delete(project.id, user.id))) throw Errors.notFound('User');
  }

  /** The developer asks for a reset mail to be sent to one of the project's users. */
  async sendResetFromConsole(project: ProjectRow, userId: string, email?: string): Promise<void> {
    const user = await this.requireUser(project, userId, email);
    await this.d.rateLimiter.hit(this.limit('consoleResetPerUser', project, user.id));
    await this.mailReset(project, user);
  }

  async settings(project: ProjectRow, input: { allowed_origins?: string[]; site_url?: string | null; block_common_passwords?: boolean } = {}) {
    const update: Partial<AuthSettings> = {};
    if (input.allowed_origins !== undefined) update.allowedOrigins = input.allowed_origins.map((o, i) => normalizeOrigin(o, i));
    if (input.site_url !== undefined) update.siteUrl = normalizeSiteUrl(input.site_url);
    if (input.block_common_passwords !== undefined) update.blockCommonPasswords = input.block_common_passwords;
    if (update.allowedOrigins) update.allowedOrigins = [...new Set(update.allowedOrigins)];
    const s = Object.keys(update).length ? await this.d.repo.saveSettings(project.id, update, this.now()) : await this.d.repo.settings(project.id);
    return { allowed_origins: s.allowedOrigins, site_url: s.siteUrl, block_common_passwords: s.blockCommonPasswords };
  }

  /** The platform's password rules under the project's policy (common passwords and the e-mail refused unless switched off). */
  private async checkPassword(projectId: string, password: string, email: string): Promise<void> {
    const { blockCommonPasswords } = await this.d.repo.settings(projectId);
    checkPassword(password, 'password', { email }, { blockGuessable: blockCommonPasswords });
  }

  // ================================================================== devices
  private async deviceOf(user: EndUserRow | undefined, deviceToken: string | undefined): Promise<string | undefined> {
    if (!user || !deviceToken) return undefined;
    return knownDevice(this.d.repo, user.id, deviceToken, this.now());
  }

  /** After a sign-in (or sign-up): the presented device token again (refreshed), or a new one. */
  private trust(userId: string, presented?: string): Promise<string> {
    return trustDevice(this.d.repo, userId, presented, this.now());
  }

  // ================================================================== app side
  private async session(project: Pick<ProjectRow, 'id'>, user: EndUserRow, familyId = crypto.randomUUID()): Promise<EndUserSession> {
    const refresh = randomToken(32);
    await this.d.repo.insertRefreshToken({
      userId: user.id,
      projectId: project.id,
      familyId,
      tokenHash: sha256(refresh),
      expiresAt: new Date(this.now().getTime() + REFRESH_TTL_MS),
    });
    return this.answer(project, user, refresh);
  }

  private async answer(project: Pick<ProjectRow, 'id'>, user: EndUserRow, refresh: string): Promise<EndUserSession> {
    await this.d.signedIn?.(project.id, user.id);
    return {
      access_token: this.d.tokens.sign({ sub: user.id, pid: project.id, tv: user.tokenVersion }),
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: this.d.tokens.ttlSeconds,
      user: endUserView(user),
    };
  }

  async signUp(project: ProjectRow, input: { email: string; password: string }, ip: string): Promise<EndUserSession> {
    await this.d.rateLimiter.hit(this.limit('signUpPerIp', project, ip));
    const user = await this.create(project, input, this.now());
    return { ...(await this.session(project, user)), device_token: await this.trust(user.id) };
  }

  /** Throttled like developer sign-ins (sign-in/sign-in-guard.ts), per project; keyed by the email, known or not. */
  async signIn(project: ProjectRow, input: { email: string; password: string; device_token?: string }, ip: string): Promise<EndUserSession> {
    const emailKey = normalizeEmail(input.email);
    const user = await this.d.repo.findByEmail(project.id, emailKey);
    const deviceId = await this.deviceOf(user, input.device_token);
    const guard = guardBuckets(SIGN_IN_POLICY, `enduser-login:${project.id}`, emailKey, ip, deviceId);
    const ticket = await this.d.rateLimiter.attempt(guard.buckets);
    const ok = user ? await this.d.passwords.verify(input.password, user.passwordHash) : (await this.d.passwords.dummyVerify(input.password), false);
    if (!user || !ok) {
      const failures = guard.accountKey ? ticket.counts[guard.accountKey] : undefined;
      if (user && failures !== undefined && isBurst(failures))
        this.d.log?.warn({ projectId: project.id, userId: user.id, failures, clientAddress: ip }, 'security: end-user sign-in failures burst');
      throw Errors.invalidCredentials();
    }
    await ticket.succeeded(guard.clearOnSuccess);
    const updated = await this.touchLastLogin(project, user);
    return { ...(await this.session(project, updated)), device_token: await this.trust(user.id, input.device_token) };
  }

  /**
   * Marks the sign-in. A user not yet active this month is one more monthly active user, within the
   * plan's limit; the check looks again inside the locked transaction, so two sign-ins of one user
   * at once count that user once.
   */
  private async touchLastLogin(project: ProjectRow, user: EndUserRow): Promise<EndUserRow> {
    const now = this.now();
    const since = monthStart(now);
    if (!this.d.limits || (user.lastLogin && user.lastLogin >= since)) return this.d.repo.touchLastLogin(user.id, now);
    const updated = await this.d.limits.within(
      project.ownerId,
      'monthly_active_users',
      this.d.limits.counted('monthly_active_users', project.ownerId, since),
      (tx) => this.d.repo.touchLastLogin(user.id, now, tx),
      async (tx) => {
        const last = await this.d.repo.lastLogin(user.id, tx);
        return last && last >= since ? 0 : 1;
      },
      project.id,
    );
    if (!updated) throw Errors.invalidCredentials();
    this.d.repo.loginMarked(user.id);
    return updated;
  }

  /**
   * Rotates the refresh token. Presenting a token that was already rotated means two holders
   * (a thief and the user): the whole family is revoked and both must sign in again. Strict on
   * purpose, so two tabs racing one refresh token also lose the session.
   */
  async refresh(project: ProjectRow, refreshToken: string): Promise<EndUserSession> {
    const now = this.now();
    const next = randomToken(32);
    const hash = sha256(refreshToken);
    const rotated = await this.d.repo.rotateRefreshToken(project.id, hash, { tokenHash: sha256(next), expiresAt: new Date(now.getTime() + REFRESH_TTL_MS) }, now);
    if (!rotated) {
      const seen = await this.d.repo.findRefreshToken(project.id, hash);
      if (seen?.rotatedAt && !seen.revokedAt) {
        await this.d.repo.revokeFamily(seen.familyId, now);
        this.d.log?.warn({ projectId: project.id, userId: seen.userId, familyId: seen.familyId }, 'refresh token reused: session family revoked');
      }
      throw Errors.unauthorized(INVALID_REFRESH);
    }
    const user = await this.d.repo.findById(project.id, rotated.userId);
    if (!user) throw Errors.unauthorized(INVALID_REFRESH);
    return this.answer(project, user, next);
  }

  /** Revokes the session (the token's whole family) the refresh token belongs to. */
  async signOut(project: ProjectRow, refreshToken: string): Promise<void> {
    const row = await this.d.repo.findRefreshToken(project.id, sha256(refreshToken));
    if (!row || row.revokedAt) throw Errors.unauthorized(INVALID_REFRESH);
    await this.d.repo.revokeFamily(row.familyId, this.now());
  }

  /** The user behind a valid access token of this project, still at the token's version. */
  async authenticate(project: Pick<ProjectRow, 'id'>, accessToken: string): Promise<EndUserRow> {
    const claims = await this.d.tokens.verify(accessToken, project.id);
    if (!claims) throw Errors.invalidToken();
    const user = await this.findUser(project.id, claims.sub);
    if (!user || user.tokenVersion !== claims.tv) throw Errors.invalidToken();
    return user;
  }

  /**
   * An end user of the project as of now (undefined once removed): kept in memory until a change
   * of the user or the project is heard (lookup notices), so every instance agrees at once.
   */
  findUser(projectId: string, userId: string): Promise<EndUserRow | undefined> {
    return this.d.lookups.get(
      `end_user:${projectId}:${userId}`,
      () => this.d.repo.findById(projectId, userId),
      (u) => [`end_user:${u.id}`, `project:${projectId}`],
    );
  }

  /**
   * Always resolves for a well-formed email; mails a link only when the user exists. Throttled
   * like sign-ins and keyed by the email whether or not it has a user, so a 429 reveals nothing.
   */
  async requestReset(project: ProjectRow, email: string, ip: string, deviceToken?: string): Promise<void> {
    const emailKey = normalizeEmail(email);
    const user = await this.d.repo.findByEmail(project.id, emailKey);
    const deviceId = await this.deviceOf(user, deviceToken);
    await this.d.rateLimiter.attempt(guardBuckets(RESET_REQUEST_POLICY, `enduser-recover:${project.id}`, emailKey, ip, deviceId).buckets);
    if (!user) return;
    await this.mailReset(project, user);
  }

  /** Sets the password from a reset token; the token's row names the user and so the project. */
  async resetPassword(token: string, password: string, ip: string): Promise<string> {
    await this.d.rateLimiter.hit({ key: `enduser-reset:ip:${ip}`, ...LIMITS.resetPerIp });
    const now = this.now();
    // The project's rules apply, and a refused password leaves the link working.
    const holder = await this.d.repo.findByOpenToken('password_reset', sha256(token), now);
    if (!holder) throw Errors.badRequest('This reset link is invalid or has expired');
    await this.checkPassword(holder.projectId, password, holder.email);
    const userId = await this.d.repo.consumeToken('password_reset', sha256(token), now);
    const user = userId && (await this.d.repo.findAnyById(userId));
    if (!user) throw Errors.badRequest('This reset link is invalid or has expired');
    await this.d.repo.setPassword(user.id, await this.d.passwords.hash(password), now);
    await this.d.repo.closeTokens(user.id, 'password_reset', now);
    // The user proved the mailbox: others' failures against the account no longer count.
    await this.d.rateLimiter.reset(guardBuckets(SIGN_IN_POLICY, `enduser-login:${user.projectId}`, user.emailNormalized, '').accountKey!);
    return user.projectId;
  }

  async sendVerification(project: ProjectRow, user: EndUserRow): Promise<'sent' | 'already'> {
    if (user.emailVerifiedAt) return 'already';
    await this.d.rateLimiter.hit(this.limit('verifyMailPerUser', project, user.id));
    const token = randomToken();
    await this.d.repo.createToken(user.id, 'email_verify', sha256(token), new Date(this.now().getTime() + VERIFY_TTL_MS));
    const link = `${await this.linkBase(project)}/verify-email?token=${token}`;
    await (await this.d.mailers.forProject(project)).send({
      to: user.email,
      subject: `Verify your email for ${project.name}`,
      text: `Hello,\n\nPlease confirm that ${user.email} is your address for ${project.name} by opening this link within 24 hours:\n\n${link}\n`,
    });
    return 'sent';
  }

  /** The project id of the confirmed user, or undefined for an invalid or used token. */
  async confirmEmail(token: string): Promise<string | undefined> {
    const now = this.now();
    const userId = await this.d.repo.consumeToken('email_verify', sha256(token), now);
    const user = userId && (await this.d.repo.findAnyById(userId));
    if (!user) return undefined;
    // markVerified waits until the kept end user (platform/lookup-cache.ts) is dropped everywhere.
    await this.d.repo.markVerified(user.id, now);
    return user.projectId;
  }

  // ================================================================== mail
  /**
   * Links in end-user mails point at the developer's app when the project set a site_url, else
   * at the platform's fallback page:
   *   `${site_url || PUBLIC_URL + '/auth/end-user'}/reset-password?token=<token>`
   *   `${site_url || PUBLIC_URL + '/auth/end-user'}/verify-email?token=<token>`
   * The page then POSTs the token to /api/auth/v1/reset (with the new password) or /api/auth/v1/verify.
   */
  private async linkBase(project: ProjectRow): Promise<string> {
    const { siteUrl } = await this.d.repo.settings(project.id);
    return siteUrl ?? `${this.d.publicUrl}/auth/end-user`;
  }

  private async mailReset(project: ProjectRow, user: EndUserRow): Promise<void> {
    const token = randomToken();
    await this.d.repo.createToken(user.id, 'password_reset', sha256(token), new Date(this.now().getTime() + RESET_TTL_MS));
    const link = `${await this.linkBase(project)}/reset-password?token=${token}`;
    await (await this.d.mailers.forProject(project)).send({
      to: user.email,
      subject: `Reset your password for ${project.name}`,
      text: `Hello,\n\nSomeone asked to reset the password of your ${project.name} account (${user.email}). To choose a new password, open this link within 1 hour:\n\n${link}\n\nIf it wasn't you, ignore this mail; your password stays as it is.\n`,
    });
  }

  // ================================================================== CORS
  originAllowedForProject(projectId: string, origin: string): Promise<boolean> {
    return this.d.repo.originListedByProject(projectId, origin);
  }

  originAllowedAnywhere(origin: string): Promise<boolean> {
    return this.d.repo.originListedByAnyProject(origin);
  }
}

/** "https://app.example.com" exactly: the shared rule (shared/rules.ts), answered as a 400 naming the field. */
export function normalizeOrigin(input: string, index = 0): string {
  const origin = sharedRules.normalizeOrigin(input);
  if (origin === undefined) throw Errors.validation(`body/allowed_origins/${index} must be an origin like https://app.example.com (scheme, host and optional port; no path)`);
  return origin;
}

/** An http(s) base URL without query or fragment, stored without a trailing slash; '' or null clears it. */
export function normalizeSiteUrl(input: string | null): string | null {
  const checked = sharedRules.checkSiteUrl(input);
  if ('url' in checked) return checked.url;
  if (checked.problem === 'not-a-url') throw Errors.validation('body/site_url must be a URL like https://app.example.com');
  throw Errors.validation('body/site_url must be an http(s) URL without query, fragment or credentials');
}

export function endUserView(u: EndUserRow) {
  return {
    id: u.id,
    email: u.email,
    email_verified: u.emailVerifiedAt !== null,
    last_login: u.lastLogin?.toISOString() ?? null,
    created_at: u.createdAt.toISOString(),
  };
}

export function consoleUserView(u: EndUserRow) {
  return {
    user_id: u.id,
    email: u.email,
    email_verified: u.emailVerifiedAt !== null,
    last_login: u.lastLogin?.toISOString() ?? null,
    created_at: u.createdAt.toISOString(),
  };
}
