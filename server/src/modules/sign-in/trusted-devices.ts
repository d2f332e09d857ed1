// Remembering a device after a complete sign-in, the same for developer accounts and end users:
// the presented device token is checked against the owner's stored hashes, refreshed when known,
// or a new token is issued (the owner keeps only its most recently used few).
import { randomToken, sha256 } from '../../platform/crypto';
import { DEVICE_TTL_MS, DEVICES_KEPT } from './sign-in-guard';

/** The device door of a repository (accounts' or end users'). */
export interface DeviceStore {
  findDevice(ownerId: string, tokenHash: string, now: Date, ttlMs: number): Promise<string | undefined>;
  touchDevice(id: string, now: Date): Promise<void>;
  addDevice(ownerId: string, tokenHash: string, now: Date, keep: number): Promise<void>;
}

/** The id of the owner's device behind a presented device token, if it is valid. */
export function knownDevice(store: DeviceStore, ownerId: string, deviceToken: string, now: Date): Promise<string | undefined> {
  return store.findDevice(ownerId, sha256(deviceToken), now, DEVICE_TTL_MS);
}

/** After a complete sign-in: the presented device token again (refreshed), or a new one. */
export async function trustDevice(store: DeviceStore, ownerId: string, presented: string | undefined, now: Date): Promise<string> {
  const known = presented ? await knownDevice(store, ownerId, presented, now) : undefined;
  if (known && presented) {
    await store.touchDevice(known, now);
    return presented;
  }
  const token = randomToken();
  await store.addDevice(ownerId, sha256(token), now, DEVICES_KEPT);
  return token;
}
