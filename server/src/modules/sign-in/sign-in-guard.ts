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
import type { Backoff } from '../../platform/rate-limit';
import { MFA_CHALLENGE_ATTEMPTS, MFA_FAILURE_POLICY, RESET_REQUEST_POLICY, SIGN_IN_POLICY, type GuardPolicy } from '../../platform/limits';

// The policies' numbers live with every other limit (platform/limits.ts).
export { MFA_CHALLENGE_ATTEMPTS, MFA_FAILURE_POLICY, RESET_REQUEST_POLICY, SIGN_IN_POLICY, type GuardPolicy };

const DAY = 24 * 60 * 60;

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
