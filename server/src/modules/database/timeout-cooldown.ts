// A caller whose statement ran past the statement timeout is paused before its next database
// call: 429 with Retry-After, growing on repeat. On embedded PGlite such a statement is ended by
// restarting the database's worker (db/pglite-host.ts), which everybody waits for; on PostgreSQL
// it held a connection of the pool for the whole timeout. Either way a caller looping the same
// call must not make it happen again and again.
//
// The pause is a backoff bucket of the rate limiter (lib/rate-limit.ts): in the database, so every
// instance pauses the same caller. Who the caller is: the signed-in end user, else the key and the
// client's address (the data API); the developer's account (the console, more lenient: a developer
// exploring data runs into the timeout now and then). Nobody else of the project is paused: not the
// other end users, not the owner in the console.
//
// Most calls are of callers never paused: what the database said is remembered briefly, so the
// check costs a statement at most once a second per caller (another instance's new pause shows
// here within that second; this instance's own at once). A pause is remembered until it ends: a
// caller looping into it is answered without a statement.
import type { DatabaseLimits } from '../../config';
import { Errors } from '../../platform/errors';
import type { Backoff, RateLimiter } from '../../platform/rate-limit';

export interface TimeoutCaller {
  /** Also the engine's caller tag (db/client.ts TenantLimits.caller). */
  key: string;
  kind: 'app' | 'console';
}

/** A data-API caller: the end user when signed in, else the key's kind and the client's address. */
export function appTimeoutCaller(projectId: string, endUserId: string | null | undefined, keyKind: string, ip: string): TimeoutCaller {
  return { key: endUserId ? `db-timeout:${projectId}:user:${endUserId}` : `db-timeout:${projectId}:${keyKind}:${ip}`, kind: 'app' };
}

/** A developer in the console (every project of the account shares it). */
export function consoleTimeoutCaller(accountId: string): TimeoutCaller {
  return { key: `db-timeout:console:${accountId}`, kind: 'console' };
}

/** SQLSTATE query_canceled: the statement timeout (on both engines). */
export function isStatementTimeout(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '57014';
}

/** How long "not paused" is taken as the database's answer. */
const CLEAR_FOR_MS = 1000;
const REMEMBERED = 10_000;

export class TimeoutCooldown {
  /** Per caller key: paused until, or known clear until (ms). */
  private readonly known = new Map<string, { paused: boolean; until: number }>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: Pick<DatabaseLimits, 'cooldownSeconds' | 'cooldownMaxSeconds'>,
  ) {}

  private bucket(caller: TimeoutCaller): Backoff {
    const base = { key: caller.key, delaySeconds: this.limits.cooldownSeconds, maxDelaySeconds: this.limits.cooldownMaxSeconds };
    // An app caller pauses from its first timeout (a loop is the attack); a developer after the third within an hour.
    return caller.kind === 'app' ? { ...base, free: 1, forgetSeconds: 86_400 } : { ...base, free: 3, forgetSeconds: 3600 };
  }

  /** 429 while the caller is paused. */
  async check(caller: TimeoutCaller): Promise<void> {
    const now = Date.now();
    let known = this.known.get(caller.key);
    if (!known || known.until <= now) {
      const wait = await this.limiter.waitSeconds(this.bucket(caller));
      known = wait > 0 ? { paused: true, until: Date.now() + wait * 1000 } : { paused: false, until: Date.now() + CLEAR_FOR_MS };
      if (this.known.size >= REMEMBERED) this.known.clear();
      this.known.set(caller.key, known);
    }
    if (known.paused) throw Errors.databaseCooldown((known.until - Date.now()) / 1000);
  }

  /**
   * Counts one timeout of the caller. One already counted and still waiting is not counted again:
   * several statements of the same caller that ran out together (queued behind each other, or side
   * by side on PostgreSQL) pause it once.
   */
  async record(caller: TimeoutCaller): Promise<void> {
    this.known.delete(caller.key);
    await this.limiter.attempt([this.bucket(caller)]).catch((err: unknown) => {
      if ((err as { statusCode?: unknown }).statusCode !== 429) throw err;
    });
    this.known.delete(caller.key);
  }
}
