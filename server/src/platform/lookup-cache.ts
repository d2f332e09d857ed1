// The lookups every API call makes, kept in this instance's memory and dropped by the database's
// notices: the project an app key names, the end user an access token names, the account of a
// developer token; and what file listings read (storage.service.ts): a project's pages of files
// and its owner's bytes stored. Each of those rows notifies channel hostbase_lookups when it
// changes or goes (migrations/0011 and 0019: triggers, in the changing transaction, so whatever
// statement made the change and whichever instance ran it, every instance hears of it when it
// commits).
//
// Coherence, not a TTL:
// - a notice drops every entry made from the row it names;
// - a lookup that was under way when any notice arrived is not kept (it may have read the row
//   before the change), so nothing older than the last notice is ever stored;
// - while the listening connection is down (notices would be lost) nothing is served from memory,
//   and what was kept is dropped when it is back;
// - an instance that wrote such a row waits (barrier()) until every instance that is up has
//   confirmed it heard the notices sent so far, before it answers: once a caller hears "key
//   rotated", no instance serves the old key. Instances are known from platform_instances
//   (migrations/0016), where each one shows itself every few seconds; one that doesn't confirm in
//   time (stopped, hung) is named in the log, and this instance drops everything it kept.
// The age limit (MAX_AGE_MS) is a backstop only.
import crypto from 'node:crypto';
import type { Database } from '../db/client';
import { sweepOf } from './sweeps';

export const LOOKUP_CHANNEL = 'hostbase_lookups';
export type LookupKind = 'project' | 'end_user' | 'account';

/** What is kept, in units: a lookup is one, a page of files one plus one per file (get's weigh). */
const MAX_WEIGHT = 50_000;
const MAX_AGE_MS = 5 * 60_000;
const BARRIER_WAIT_MS = 2000;
/** How often an instance shows itself, and after how long without it others stop waiting for it. */
const HEARTBEAT_MS = 5000;
const PEER_GONE_MS = 15_000;

interface Entry {
  value: unknown;
  at: number;
  tags: string[];
  weight: number;
}

export class LookupCache {
  private readonly entries = new Map<string, Entry>();
  /** Entry keys by the row ("kind:id") they were made from. */
  private readonly byTag = new Map<string, Set<string>>();
  /** The sum of the entries' weights. */
  private weight = 0;
  /** Bumped by every notice and every gap: a lookup that saw it change keeps nothing. */
  private epoch = 0;
  private live = false;
  private unlisten?: () => Promise<void>;
  private heartbeat?: NodeJS.Timeout;
  /** This instance's barriers waiting for confirmations: nonce → instances still to confirm. */
  private readonly barriers = new Map<string, { waiting: Set<string>; done: () => void }>();
  readonly instanceId = crypto.randomBytes(9).toString('base64url');

  constructor(
    private readonly database: Database,
    private readonly log: { warn(obj: object, msg: string): void } = { warn: () => undefined },
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts listening and showing this instance; until it listens (and whenever it doesn't) every lookup is read. */
  async start(): Promise<void> {
    this.unlisten = await this.database.listen(LOOKUP_CHANNEL, (payload) => this.onNotice(payload), () => this.onGap(), () => this.onResume());
    await this.showSelf();
    // Only while listening: an instance that can't hear notices can't confirm them, and keeps nothing.
    this.heartbeat = setInterval(() => {
      if (this.live) this.showSelf().catch((err: Error) => this.log.warn({ err }, 'lookup cache: heartbeat failed'));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.live = true;
  }

  async stop(): Promise<void> {
    this.live = false;
    clearInterval(this.heartbeat);
    this.drop();
    for (const barrier of this.barriers.values()) barrier.done();
    await this.database.query('DELETE FROM platform_instances WHERE id = $1', [this.instanceId]).catch(() => undefined);
    await this.unlisten?.();
  }

  /**
   * The value under `key`, read by load when it isn't kept; tags: the rows ("kind:id") whose change
   * must drop it. Nothing is kept for undefined (an unknown key stays a read each time). weigh:
   * what the value costs to keep, in units of a lookup (default 1).
   */
  async get<V>(key: string, load: () => Promise<V | undefined>, tags: (value: V) => string[], weigh?: (value: V) => number): Promise<V | undefined> {
    if (this.live) {
      const hit = this.entries.get(key);
      if (hit && this.now() - hit.at < MAX_AGE_MS) return hit.value as V;
      if (hit) this.remove(key);
    }
    const epoch = this.epoch;
    const value = await load();
    if (value !== undefined && this.live && epoch === this.epoch) this.keep(key, value, tags(value), weigh?.(value) ?? 1);
    return value;
  }

  /** What is kept under `key`, without reading anything (a synchronous fast path); undefined when not kept. */
  peek<V>(key: string): V | undefined {
    if (!this.live) return undefined;
    const hit = this.entries.get(key);
    return hit && this.now() - hit.at < MAX_AGE_MS ? (hit.value as V) : undefined;
  }

  /**
   * Resolves once this instance and every other instance that is up have heard the notices sent
   * before the call (a barrier notice comes back here, and each other instance confirms it):
   * every change committed before it is then in force everywhere. Not listening: nothing is
   * served from memory here anyway, and the others are still asked.
   */
  async barrier(): Promise<void> {
    const peers = await this.database.query<{ id: string }>(
      `SELECT id FROM platform_instances WHERE id <> $1 AND seen_at > now() - make_interval(secs => $2)`,
      [this.instanceId, PEER_GONE_MS / 1000],
    );
    const nonce = crypto.randomBytes(9).toString('base64url');
    const waiting = new Set(peers.map((p) => p.id));
    if (this.live) waiting.add(this.instanceId);
    if (waiting.size === 0) {
      await this.database.query('SELECT pg_notify($1, $2)', [LOOKUP_CHANNEL, `barrier:${nonce}:${this.instanceId}`]);
      return;
    }
    const confirmed = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), BARRIER_WAIT_MS);
      this.barriers.set(nonce, {
        waiting,
        done: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
    await this.database.query('SELECT pg_notify($1, $2)', [LOOKUP_CHANNEL, `barrier:${nonce}:${this.instanceId}`]);
    if (!(await confirmed)) {
      this.log.warn({ silent: [...waiting] }, 'lookup cache: instances did not confirm a change in time; this instance drops what it kept');
      this.drop();
    }
    this.barriers.delete(nonce);
  }

  /**
   * Drops, here and now, what was kept from the row `tag` ("kind:id") names, without waiting for
   * the other instances (they drop theirs when the row's notice reaches them, within its delivery):
   * for a change that decides nothing (an end user's last sign-in), so this instance's next read
   * shows it and no caller waits on a barrier for it.
   */
  forget(tag: string): void {
    this.epoch += 1;
    const keys = this.byTag.get(tag);
    if (keys) for (const key of [...keys]) this.remove(key);
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.entries.size;
  }

  private onNotice(payload: string): void {
    if (payload.startsWith('barrier:')) {
      // Another instance's barrier: this one has heard everything before it, and says so.
      const [, nonce, origin] = payload.split(':');
      if (origin === this.instanceId) this.confirmed(nonce, this.instanceId);
      else void this.database.query('SELECT pg_notify($1, $2)', [LOOKUP_CHANNEL, `heard:${nonce}:${this.instanceId}`]).catch(() => undefined);
      return;
    }
    if (payload.startsWith('heard:')) {
      const [, nonce, from] = payload.split(':');
      this.confirmed(nonce, from);
      return;
    }
    // A row changed: a lookup under way may have read it before the change.
    this.epoch += 1;
    const keys = this.byTag.get(payload);
    if (!keys) return;
    for (const key of [...keys]) this.remove(key);
  }

  private confirmed(nonce: string, from: string): void {
    const barrier = this.barriers.get(nonce);
    if (!barrier) return;
    barrier.waiting.delete(from);
    if (barrier.waiting.size === 0) barrier.done();
  }

  private async showSelf(): Promise<void> {
    await this.database.query(
      'INSERT INTO platform_instances (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()',
      [this.instanceId],
    );
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

  private keep(key: string, value: unknown, tags: string[], weight: number): void {
    this.remove(key);
    if (weight > MAX_WEIGHT) return;
    // The oldest entries make room (a Map iterates in insertion order).
    while (this.weight + weight > MAX_WEIGHT) this.remove(this.entries.keys().next().value as string);
    // Shared by every call that finds it: frozen, so none can change what the next one reads.
    this.entries.set(key, { value: Object.freeze(value), at: this.now(), tags, weight });
    this.weight += weight;
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
    this.weight -= entry.weight;
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
    this.weight = 0;
  }
}

/** Instances not seen for a day are gone (a live one renews its row far more often). */
export const instanceSweep = sweepOf('platform instances', `DELETE FROM platform_instances WHERE seen_at < now() - interval '1 day'`);
