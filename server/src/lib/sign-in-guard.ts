// Who is slowed down when passwords are guessed, for developers and for end users alike (OWASP's
// guidance on blocking brute force, NIST SP 800-63B 5.2.2). Failures are counted
// - per account and client address: one address guessing one account is slowed, then blocked;
// - per client address, whatever the account: one address spraying many accounts likewise;
// - per account from clients without its device token: a ceiling far above what a person types,
//   against guessing spread over many addresses;
// - per account and device token: a client that signed in before is counted on its own, so it
//   never meets the ceiling others filled, nor the address limits of a shared address.
// The account's owner, typing the right password from another address, is never refused because
// of someone else's failures, unless those exhaust the ceiling and the owner's client is new.
import type { Backoff, BackoffPolicy } from './rate-limit';

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
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

/** A device token is honoured this long after its last sign-in; an account keeps its newest few. */
export const DEVICE_TTL_MS = 90 * DAY * 1000;
export const DEVICES_KEPT = 20;

export interface GuardBuckets {
  buckets: Backoff[];
  /** Cleared by a success: the failures of this client for this account, and the account's ceiling. */
  clearOnSuccess: string[];
  /** The account-wide bucket's key, when counted (untrusted clients). */
  accountKey?: string;
}

/**
 * The buckets an attempt counts in. `scope` separates the uses ("login", "enduser-login:<project>"),
 * `subject` is the normalized e-mail (known or not, so both are throttled alike), `deviceId` the
 * id of a device token valid for that account.
 */
export function guardBuckets(policy: GuardPolicy, scope: string, subject: string, address: string, deviceId?: string): GuardBuckets {
  const accountKey = `${scope}:account:${subject}`;
  if (deviceId) {
    const device = { key: `${scope}:device:${deviceId}`, ...policy.device };
    return { buckets: [device], clearOnSuccess: [device.key, accountKey] };
  }
  const accountAddress = { key: `${scope}:account-address:${subject}:${address}`, ...policy.accountAddress };
  const addr = { key: `${scope}:address:${address}`, ...policy.address };
  const account = { key: accountKey, ...policy.account };
  return { buckets: [accountAddress, addr, account], clearOnSuccess: [accountAddress.key, accountKey], accountKey };
}

/** Failures worth a log line: the 10th, 20th, 40th, 80th... of an account. */
export const BURST_FIRST = 10;
export function isBurst(failures: number): boolean {
  if (failures < BURST_FIRST || failures % BURST_FIRST !== 0) return false;
  const n = failures / BURST_FIRST;
  return (n & (n - 1)) === 0;
}
