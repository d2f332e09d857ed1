// Live changes: the hub of one instance. Every project table's row trigger sends a
// notice on NOTIFY_CHANNEL (triggers.ts) with the row's primary key; each instance LISTENs once
// (from its first subscriber until the app closes) and serves its own SSE clients from it, so
// nothing another instance needs is kept here. A notice carries no row data: the row is read
// again as each subscriber (its end user, the project's app role), so the same row-level
// security that guards selects decides what each subscriber sees. The streams themselves (caps,
// heartbeats, slow clients, closing) are the platform's live-stream hub's
// (platform/http/live-streams.ts).
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { LiveStreams } from '../../platform/http/live-streams';
import type { DatabaseContext } from './database.context';
import type { DbAccess } from './database.tables';
import { quoteIdent } from './identifiers';
import { tableRecords } from './database.repository';
import { NOTIFY_CHANNEL, type ChangeNotice } from './triggers';
import { CHANGES_LIMITS, type ChangesLimits } from './changes.limits';
import { Subscriber, type Credential } from './change-subscriber';

export { CHANGES_LIMITS, Subscriber, type ChangesLimits, type Credential };


type Op = ChangeNotice['op'];
const OPS = new Set<Op>(['INSERT', 'UPDATE', 'DELETE']);

/** The subscribers of one table, and its notices waiting to be read (in arrival order). */
interface TableChannel {
  projectId: string;
  table: string;
  subscribers: Set<Subscriber>;
  pending: { raw: string; notice: ChangeNotice }[];
  pendingBytes: number;
  running?: Promise<void>;
  access?: { rule: DbAccess; at: number };
}

const channelKey = (projectId: string, table: string) => `${projectId}\u0000${table}`;

export class ChangesHub {
  private readonly channels = new Map<string, TableChannel>();
  private readonly streams: LiveStreams;
  private pendingBytes = 0;
  private listening?: Promise<() => Promise<void>>;
  private recheck?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly ctx: DatabaseContext,
    private readonly log: FastifyBaseLogger,
    private readonly limits: ChangesLimits = CHANGES_LIMITS,
  ) {
    this.streams = new LiveStreams({ limits, heartbeat: 'keep-alive' });
  }

  /** Streams open on this instance (tests, health). */
  get size(): number {
    return this.streams.size;
  }

  /**
   * A new subscriber writing to `out`, once this instance listens (so a change committed after
   * the caller gets `ready` is never missed). 429 past the limits. Removed when `out` closes.
   */
  async subscribe(projectId: string, table: string, endUserId: string | null, out: Writable, credential?: Credential, address = ''): Promise<Subscriber> {
    this.streams.assertOpen();
    await this.listen();
    const client = `client\u0000${projectId}\u0000${endUserId ? `user:${endUserId}` : `ip:${address}`}`;
    const key = channelKey(projectId, table);
    const channel = this.channels.get(key) ?? { projectId, table, subscribers: new Set<Subscriber>(), pending: [], pendingBytes: 0 };
    const sub: Subscriber = this.streams.admit(
      new Subscriber(projectId, table, endUserId, out, this.limits, credential),
      [
        { key: client, max: this.limits.perClient, refusal: `This client has ${this.limits.perClient} live-change streams of this project open on this server; close one or try again later` },
        { key: `project\u0000${projectId}`, max: this.limits.perProject, refusal: `This project has ${this.limits.perProject} live-change streams open on this server; close one or try again later` },
        { max: this.limits.total, refusal: 'This server has too many live-change streams open; try again later' },
      ],
      (): void => this.remove(channel, sub),
    );
    this.channels.set(key, channel);
    channel.subscribers.add(sub);
    return sub;
  }

  /** Ends every stream (preClose: the server can't close while they are open). */
  endStreams(): void {
    this.closed = true;
    this.streams.endAll();
  }

  /** Stops listening once the reads under way are done (onClose). */
  async close(): Promise<void> {
    this.endStreams();
    clearInterval(this.recheck);
    await Promise.allSettled([...this.channels.values()].map((c) => c.running));
    const unlisten = await this.listening?.catch(() => undefined);
    this.listening = undefined;
    await unlisten?.();
  }

  private remove(channel: TableChannel, sub: Subscriber): void {
    if (!channel.subscribers.delete(sub)) return;
    if (!channel.subscribers.size) {
      this.dropPending(channel);
      if (this.channels.get(channelKey(channel.projectId, channel.table)) === channel) this.channels.delete(channelKey(channel.projectId, channel.table));
    }
  }

  private dropPending(channel: TableChannel): void {
    this.pendingBytes -= channel.pendingBytes;
    channel.pendingBytes = 0;
    channel.pending.length = 0;
  }

  private listen(): Promise<() => Promise<void>> {
    if (!this.listening) {
      const listening = this.ctx.deps.database.listen(NOTIFY_CHANNEL, this.onPayload, this.onGap);
      this.listening = listening;
      listening.catch(() => {
        if (this.listening === listening) this.listening = undefined;
      });
      this.recheck ??= setInterval(() => void this.recheckCredentials(), this.limits.recheckMs).unref();
    }
    return this.listening;
  }

  /**
   * A stream outlives the check made when it opened: every recheckMs, each distinct credential is
   * checked again, and the streams of one that no longer passes end with an `error` event. A check
   * that fails for another reason (the database unreachable) leaves the streams open.
   */
  private async recheckCredentials(): Promise<void> {
    const byCredential = new Map<string, Subscriber[]>();
    this.everySubscriber((s) => {
      if (s.credential) byCredential.set(s.credential.id, [...(byCredential.get(s.credential.id) ?? []), s]);
    });
    await eachLimited([...byCredential.values()], this.limits.readConcurrency, async (subs) => {
      const valid = await subs[0].credential!.stillValid().catch((err: unknown) => {
        this.log.warn({ err }, 'live changes: could not check a stream\'s credentials');
        return true;
      });
      if (!valid) for (const sub of subs) sub.fail('The credentials of this stream are no longer valid (key, project or access token); reconnect');
    });
  }

  private everySubscriber(fn: (s: Subscriber) => void): void {
    for (const channel of this.channels.values()) for (const sub of [...channel.subscribers]) fn(sub);
  }

  /**
   * The listening connection was lost: notices may be missing, so every stream says so and ends,
   * and the next subscriber listens afresh (its `ready` then means what it says: listening).
   */
  private readonly onGap = (): void => {
    this.log.warn('live changes: the LISTEN connection was lost; ending every stream');
    const lost = this.listening;
    this.listening = undefined;
    void lost?.then((unlisten) => unlisten()).catch(() => undefined);
    this.everySubscriber((s) => s.fail('Live changes lost their connection to the database; reconnect and re-read'));
  };

  private readonly onPayload = (raw: string): void => {
    const notice = parseNotice(raw);
    if (!notice || this.closed) return;
    const channel = this.channels.get(channelKey(notice.project, notice.table));
    if (!channel) return;
    const bytes = raw.length;
    if (
      channel.pending.length >= this.limits.pendingNotices ||
      channel.pendingBytes + bytes > this.limits.pendingBytes ||
      this.pendingBytes + bytes > this.limits.totalPendingBytes
    ) {
      this.dropPending(channel);
      for (const sub of [...channel.subscribers]) sub.fail('Too many changes at once for live changes to follow; reconnect and re-read');
      return;
    }
    channel.pending.push({ raw, notice });
    channel.pendingBytes += bytes;
    this.pendingBytes += bytes;
    channel.running ??= this.drain(channel).finally(() => (channel.running = undefined));
  };

  /** One table's notices, a batch at a time, in order: each subscriber gets its events in commit order. */
  private async drain(channel: TableChannel): Promise<void> {
    while (channel.pending.length && channel.subscribers.size && !this.closed) {
      const batch = channel.pending.splice(0, this.limits.batch);
      const bytes = batch.reduce((n, b) => n + b.raw.length, 0);
      channel.pendingBytes -= bytes;
      this.pendingBytes -= bytes;
      try {
        await this.deliver(channel, batch);
      } catch (err) {
        this.log.error({ err, project: channel.projectId, table: channel.table }, 'live changes: could not deliver a batch');
        for (const sub of [...channel.subscribers]) sub.fail('Live changes could not read a change; reconnect and re-read');
      }
    }
  }

  private async deliver(channel: TableChannel, batch: { raw: string; notice: ChangeNotice }[]): Promise<void> {
    const subscribers = [...channel.subscribers].filter((s) => !s.isClosed);
    // Subscribers with the same end user see the same rows: one read per distinct caller.
    const callers = new Map<string | null, Subscriber[]>();
    for (const sub of subscribers) callers.set(sub.endUserId, [...(callers.get(sub.endUserId) ?? []), sub]);
    const written = batch.filter((b) => b.notice.op !== 'DELETE');
    const rule = batch.some((b) => b.notice.op === 'DELETE') ? await this.accessRule(channel) : 'none';

    const seen = new Map<string | null, Map<number, unknown>>();
    await eachLimited([...callers], this.limits.readConcurrency, async ([endUserId, subs]) => {
      try {
        seen.set(endUserId, written.length ? await this.readAs(channel, endUserId, written) : new Map());
      } catch (err) {
        const message = lostAccess(err);
        if (!message) throw err;
        for (const sub of subs) sub.fail(message);
      }
    });

    for (const [endUserId, subs] of callers) {
      const rows = seen.get(endUserId);
      if (!rows) continue;
      let w = 0;
      for (const { notice } of batch) {
        const event = notice.op === 'DELETE' ? deleteEvent(notice, rule, endUserId) : eventOf(notice, rows.get(w++));
        if (event) for (const sub of subs) sub.send(notice.op, event);
      }
    }
  }

  /**
   * The rows of `notices` (by their primary keys, in order) that `endUserId` may read now, by
   * position. Read as the project's app role with the caller's end user: the table's grants and
   * row-level security policies decide, exactly as for a select.
   */
  private readAs(channel: TableChannel, endUserId: string | null, notices: { raw: string; notice: ChangeNotice }[]): Promise<Map<number, unknown>> {
    const columns = Object.keys(notices[0]?.notice.pk ?? {});
    // A table without a primary key can't be read back row by row: its inserts and updates are not followed.
    if (!columns.length) return Promise.resolve(new Map());
    return this.ctx.session({ id: channel.projectId }, { role: 'app', endUserId, readOnly: true }, async (tx, names) => {
      const t = `${quoteIdent(names.schemaName)}.${quoteIdent(channel.table)}`;
      // Each key is typed by the table's own row type (jsonb_populate_record), so the join uses
      // the primary key's index whatever its types; hb_ names can't be a table's or column's.
      const on = columns.map((c) => `hb_row.${quoteIdent(c)} = hb_key.${quoteIdent(c)}`).join(' AND ');
      // The notices' own text, not JSON.parse's copy: a bigint or numeric key keeps every digit.
      const rows = await tx.query<{ n: string | number; r: unknown }>(
        `SELECT hb_k.n, to_jsonb(hb_row) AS r
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS hb_k(notice, n)
           CROSS JOIN LATERAL jsonb_populate_record(NULL::${t}, hb_k.notice -> 'pk') AS hb_key
           JOIN ${t} AS hb_row ON ${on}`,
        [`[${notices.map((n) => n.raw).join(',')}]`],
      );
      return new Map(rows.map((row) => [Number(row.n) - 1, row.r]));
    });
  }

  private async accessRule(channel: TableChannel): Promise<DbAccess> {
    const now = Date.now();
    if (channel.access && now - channel.access.at < this.limits.accessCacheMs) return channel.access.rule;
    const rule = await tableRecords.accessOf(this.ctx.deps.database, channel.projectId, channel.table);
    channel.access = { rule, at: now };
    return channel.access.rule;
  }
}

function eventOf(notice: ChangeNotice, record: unknown): object | undefined {
  return record === undefined ? undefined : { type: notice.op, table: notice.table, record };
}

/**
 * A deleted row can't be read again, so this one case is decided by the platform, from the
 * table's access rule (project_db_tables.access, the same rule its policies were made from):
 * none → nobody; read → every caller with the key; signed_in → callers with an end user;
 * owner → only the end user whose id the deleted row's owner_id held.
 */
function deleteEvent(notice: ChangeNotice, rule: DbAccess, endUserId: string | null): object | undefined {
  const may =
    rule === 'read' ||
    (rule === 'signed_in' && endUserId !== null) ||
    (rule === 'owner' && endUserId !== null && notice.owner_id === endUserId);
  if (!may) return undefined;
  const oldRecord = rule === 'owner' ? { ...notice.pk, owner_id: notice.owner_id } : notice.pk;
  return { type: 'DELETE', table: notice.table, old_record: oldRecord };
}

/** The message for a subscriber whose read failed because its access is gone, or undefined. */
function lostAccess(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '42501') return 'The table\'s access rule no longer lets this caller read it';
  if (code === '42P01') return 'The table no longer exists';
  if (code === '42703') return 'The table\'s primary key changed; reconnect';
  return undefined;
}

function parseNotice(raw: string): ChangeNotice | undefined {
  try {
    const n = JSON.parse(raw) as Partial<ChangeNotice>;
    if (typeof n.project !== 'string' || typeof n.table !== 'string' || !OPS.has(n.op as Op)) return undefined;
    if (!n.pk || typeof n.pk !== 'object' || Array.isArray(n.pk)) return undefined;
    return { project: n.project, table: n.table, op: n.op as Op, pk: n.pk, owner_id: typeof n.owner_id === 'string' ? n.owner_id : null };
  } catch {
    return undefined;
  }
}

/** fn over items, at most `limit` at a time; the first failure is thrown once all have settled. */
async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await fn(item).catch((err: unknown) => failures.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length) throw failures[0];
}
