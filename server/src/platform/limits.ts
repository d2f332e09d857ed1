// Every request-rate limit of the API in one typed table: fixed windows (platform/rate-limit.ts hit,
// check/fail) and the growing waits of the sign-in guard (modules/sign-in/sign-in-guard.ts). Services name
// a limit from here and add the key (who is counted); no service writes its own numbers. Also the
// default ceiling of a hosted site (config.ts reads the overrides from the environment).
import type { BackoffPolicy } from './rate-limit';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface WindowLimit {
  max: number;
  windowSeconds: number;
}

/** Fixed windows: at most `max` events (or, for check/fail limits, failures) per window. */
export const WINDOW_LIMITS = {
  // Developer accounts.
  registerPerAddress: { max: 20, windowSeconds: HOUR },
  mfaPerAddress: { max: 30, windowSeconds: 5 * MINUTE },
  /** Wrong codes when turning two-factor on or off. */
  mfaToggleFailuresPerAccount: { max: 5, windowSeconds: 5 * MINUTE },
  /** Wrong current passwords at change-password. */
  changePasswordFailuresPerAccount: { max: 5, windowSeconds: 15 * MINUTE },
  verifyMailPerAccount: { max: 5, windowSeconds: HOUR },
  // The contact form.
  contactPerAddress: { max: 5, windowSeconds: HOUR },
  // Project exports (each reads every row and file of a project): per account.
  projectExportPerAccount: { max: 10, windowSeconds: HOUR },
  // A project's end users, all keyed by project too: one project's traffic never throttles another's.
  endUserSignUpPerAddress: { max: 30, windowSeconds: 5 * MINUTE },
  endUserResetPerAddress: { max: 20, windowSeconds: 15 * MINUTE },
  endUserVerifyMailPerUser: { max: 5, windowSeconds: HOUR },
  endUserConsoleResetPerUser: { max: 5, windowSeconds: HOUR },
} as const satisfies Record<string, WindowLimit>;

/** Waits start at a minute, double with each further failure, stop growing at an hour; a day without failures forgets them. */
const growing = (free: number): BackoffPolicy => ({ free, delaySeconds: MINUTE, maxDelaySeconds: HOUR, forgetSeconds: DAY });

export interface GuardPolicy {
  accountAddress: BackoffPolicy;
  address: BackoffPolicy;
  account: BackoffPolicy;
  device: BackoffPolicy;
}

/** Failed sign-ins (wrong password, unknown e-mail). */
export const SIGN_IN_POLICY: GuardPolicy = {
  accountAddress: growing(5),
  address: growing(30),
  account: growing(100),
  device: growing(10),
};

/** Password-reset requests: each one mails, so each one counts, found or not. */
export const RESET_REQUEST_POLICY: GuardPolicy = {
  accountAddress: growing(3),
  address: growing(10),
  account: growing(5),
  device: growing(5),
};

/** Wrong MFA codes against a valid challenge, per account and client address. */
export const MFA_FAILURE_POLICY: BackoffPolicy = growing(10);
/** Wrong codes one MFA challenge takes before it is used up (the user signs in again). */
export const MFA_CHALLENGE_ATTEMPTS = 5;

/** A hosted site's default ceiling: resident memory, processes (and threads), CPU in cores. */
export const DEFAULT_SITE_LIMITS = { memoryBytes: 512 * 1024 * 1024, maxProcesses: 128, cpus: 1 } as const;
