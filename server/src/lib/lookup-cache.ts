// The lookups every API call makes, kept in this instance's memory and dropped by the database's
// notices: the project an app key names, the end user an access token names, the account of a
// developer token. Each of those rows notifies channel hostbase_lookups when it changes or goes
// (migrations/0011: a trigger, in the changing transaction, so whatever statement made the change
// and whichever instance ran it, every instance hears of it when it commits).
//
// Coherence, not a TTL:
// - a notice drops every entry made from the row it names;
// - a lookup that was under way when any notice arrived is not kept (it may have read the row
//   before the change), so nothing older than the last notice is ever stored;
// - while the listening connection is down (notices would be lost) nothing is served from memory,
//   and what was kept is dropped when it is back;
// - an instance that makes a change waits for the notice to come back to it (barrier()) before it
//   answers, so its own next call can't see the old row; the other instances hear the same notice
//   at the same moment, give or take their event loop.
// The age limit (MAX_AGE_MS) is a backstop only.
import crypto from 'node:crypto';
import type { Database } from '../db/client';

export const LOOKUP_CHANNEL = 'hostbase_lookups';
export type LookupKind = 'project' | 'end_user' | 'account';

const MAX_ENTRIES = 20_000;
const MAX_AGE_MS = 5 * 60_000;
const BARRIER_WAIT_MS = 2000;

interface Entry {
  value: unknown;
  at: number;
  tags: string[];
}

export class LookupCache {
  private readonly entries = new Map<string, Entry>();
  /** Entry keys by the row ("kind:id") they were made from. */
  private readonly byTag = new Map<string, Set<string>>();
  /** Bumped by every notice and every gap: a lookup that saw it change keeps nothing. */
  private epoch = 0;
  private live = false;
  private unlisten?: () => Promise<void>;
  private readonly barriers = new Map<string, () => void>();

  constructor(
    private readonly database: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts listening; until it is listening (and whenever it is not) every lookup is read. */
  async start(): Promise<void> {
    this.unlisten = await this.database.listen(LOOKUP_CHANNEL, (payload) => this.onNotice(payload), () => this.onGap(), () => this.onResume());
    this.live = true;
  }

  async stop(): Promise<void> {
    this.live = false;
    this.drop();
    await this.unlisten?.();
    for (const release of this.barriers.values()) release();
  }

  /**
   * The value under `key`, read by load when it isn't kept; tags: the rows ("kind:id") whose change
   * must drop it. Nothing is kept for undefined (an unknown key stays a read each time).
   */
  async get<V>(key: string, load: () => Promise<V | undefined>, tags: (value: V) => string[]): Promise<V | undefined> {
    if (this.live) {
      const hit = this.entries.get(key);
      if (hit && this.now() - hit.at < MAX_AGE_MS) return hit.value as V;
      if (hit) this.remove(key);
    }
    const epoch = this.epoch;
    const value = await load();
    if (value !== undefined && this.live && epoch === this.epoch) this.keep(key, value, tags(value));
    return value;
  }

  /**
   * Resolves once a notice sent now has come back to this instance: every change this instance
   * committed before the call has been heard, and its entries dropped. Not listening: nothing is
   * served from memory anyway. A notice that doesn't come back in time drops everything.
   */
  async barrier(): Promise<void> {
    if (!this.live) return;
    const nonce = crypto.randomBytes(9).toString('base64url');
    const heard = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_WAIT_MS);
      this.barriers.set(nonce, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    await this.database.query('SELECT pg_notify($1, $2)', [LOOKUP_CHANNEL, `barrier:${nonce}`]);
    if (!(await heard)) this.drop();
    this.barriers.delete(nonce);
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  private onNotice(payload: string): void {
    this.epoch += 1;
    if (payload.startsWith('barrier:')) {
      this.barriers.get(payload.slice('barrier:'.length))?.();
      return;
    }
    const keys = this.byTag.get(payload);
    if (!keys) return;
    for (const key of [...keys]) this.remove(key);
  }

  private onGap(): void {
    this.live = false;
    this.drop();
  }

  private onResume(): void {
    // Notices sent while it was down are lost: start from nothing.
    this.drop();
    this.live = true;
  }

  private keep(key: string, value: unknown, tags: string[]): void {
    this.remove(key);
    // The oldest entry makes room (a Map iterates in insertion order).
    if (this.entries.size >= MAX_ENTRIES) this.remove(this.entries.keys().next().value as string);
    // Shared by every call that finds it: frozen, so none can change what the next one reads.
    this.entries.set(key, { value: Object.freeze(value), at: this.now(), tags });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }

  private drop(): void {
    this.epoch += 1;
    this.entries.clear();
    this.byTag.clear();
  }
}
