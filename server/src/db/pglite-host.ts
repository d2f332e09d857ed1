// The embedded database's worker seen from the server's thread: one PGlite in a worker thread
// (pglite-worker.ts), used by one unit of work at a time (a statement, a transaction, a
// pipeline), in an order the platform picks, with a deadline on every statement.
//
// - Order: PGlite is one connection, so units wait their turn here. The platform's own units
//   (sign-in, sessions, health, the data API's catalog reads) go before queued tenant units
//   (a project's statements): a platform call waits at most for the one unit running.
// - Deadline: a statement still running at its deadline (the tenant's statement_timeout, or
//   platformTimeoutMs) is ended the only way PGlite allows, by terminating the worker. That
//   statement fails as PostgreSQL's statement_timeout fails it (57014), and a new worker opens
//   the data dir: PostgreSQL's crash recovery keeps every committed transaction and drops the
//   rest. Other units just wait for the new worker.
// - A kill costs everybody a reopening, so the caller's units admitted before the kill (queued
//   behind it, or past the API's pause check before the API recorded the pause:
//   modules/database/timeout-cooldown.ts) fail without running (CallerPaused, a 429 for the
//   caller). The ones admitted later are the API's to refuse.
// - An in-memory database (no data dir) can't survive its worker: after a kill or a crash every
//   call fails (503) until the process is restarted, and the log says why. It never comes back
//   empty as if nothing had happened.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CallerPaused, connectionLost, fromWorker, statementTimeout } from './engine-errors';
import { inThisRealm } from './realm';
import type { HostLog, TenantLimits } from './database';
import type { WorkerInit, WorkerReply, WorkerRequest } from './pglite-worker';

export interface RunOptions {
  tenant?: TenantLimits;
  /** A platform unit's deadline per statement instead of the default (Infinity: none, for migrations and dumps). */
  timeoutMs?: number;
}

export interface HostOptions {
  /** Absent: an in-memory database. */
  dataDir?: string;
  loadDataDir?: ArrayBuffer;
  conf: string[];
  /** The deadline of every platform statement (a generous one: a migration or backup is longer). */
  platformTimeoutMs: number;
  /** The Retry-After a caller's refused units suggest (the API's first pause). */
  pauseAfterKillMs: number;
  log?: HostLog;
}

type RequestBody = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}

/** One worker's life; `dead` once it is terminated or gone (its pending statements fail). */
interface Generation {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  dead?: Error;
}

/**
 * The worker keeps the process alive only while a statement of it is in flight, as a pool's
 * socket does: an idle database left open (a script, a test) does not hold the process.
 */
function holdProcess(gen: Generation): void {
  if (gen.pending.size > 0) gen.worker.ref();
  else gen.worker.unref();
}

interface Unit {
  tenant?: TenantLimits;
  /** When its caller was admitted (TenantLimits.admittedAt, else when it was queued). */
  admittedAt: number;
  timeoutMs: number;
  run(lease: Lease): Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Subscriber {
  onPayload(payload: string): void;
  onGap?(): void;
  onResume?(): void;
}

/** A kill is remembered this long: a unit admitted before it may still be on its way (a platform statement's deadline at most, in practice). */
const KILLS_KEPT_MS = 10 * 60_000;

// The worker is pglite-worker next to this file with the same extension: .js when the server
// runs from dist/, .ts under tsx or jest (sources), where the worker registers tsx first (found
// from here: the process may run in another directory, as the CLI's tests run it).
const WORKER_FILE = path.join(__dirname, `pglite-worker${path.extname(__filename)}`);
const workerScript = (): { script: string; eval: boolean } =>
  path.extname(__filename) === '.ts'
    ? { script: `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(WORKER_FILE)});`, eval: true }
    : { script: WORKER_FILE, eval: false };

/** What a unit holds while it runs: the worker, one statement at a time, each with a deadline. */
export class Lease {
  ended = false;
  constructor(
    private readonly host: PgliteHost,
    private readonly gen: Generation,
    /** The deadline of each next statement (a transaction may change it: the SQL box's fetches). */
    public timeoutMs: number,
    readonly caller: string | undefined,
  ) {}

  send<T>(body: RequestBody): Promise<T> {
    if (this.ended) return Promise.reject(new Error('pglite: a statement was sent after its unit of work ended'));
    return this.host.send<T>(this.gen, body, this.timeoutMs, this.caller);
  }
}

export class PgliteHost {
  private gen?: Generation;
  private starting?: Promise<Generation>;
  private readonly platform: Unit[] = [];
  private readonly tenant: Unit[] = [];
  private active?: Unit;
  /** Units wait for a new worker before the next is picked: one arriving meanwhile still goes by its priority. */
  private awaitingWorker = false;
  private nextId = 0;
  /** Callers whose statement was killed, with when (kept KILLS_KEPT_MS). */
  private readonly killed = new Map<string, number>();
  private readonly channels = new Map<string, Set<Subscriber>>();
  /** Set when an in-memory database was lost, or the host closed: every call fails with it. */
  private gone?: Error;
  /** close() was called: no new units; the queued ones finish first. */
  private closing?: Promise<void>;
  private drained?: () => void;

  constructor(private readonly opts: HostOptions) {}

  /** Opens the first worker; rejects when PGlite can't open the data dir. */
  async start(): Promise<void> {
    await this.generation();
  }

  /** Runs fn with the worker to itself, after the units before it (platform units first). */
  run<T>(fn: (lease: Lease) => Promise<T>, options: RunOptions = {}): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    if (this.closing) return Promise.reject(connectionLost('the database is closed'));
    return new Promise<T>((resolve, reject) => {
      const unit: Unit = {
        tenant: options.tenant,
        admittedAt: options.tenant?.admittedAt ?? Date.now(),
        timeoutMs: options.tenant?.timeoutMs ?? options.timeoutMs ?? this.opts.platformTimeoutMs,
        run: fn,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      (options.tenant ? this.tenant : this.platform).push(unit);
      this.pump();
    });
  }

  /** Calls onPayload for each NOTIFY on channel; onGap/onResume around a worker's restart. */
  async listen(channel: string, onPayload: (payload: string) => void, onGap?: () => void, onResume?: () => void): Promise<() => Promise<void>> {
    const sub: Subscriber = { onPayload, onGap, onResume };
    let subs = this.channels.get(channel);
    if (!subs) {
      subs = new Set();
      this.channels.set(channel, subs);
      try {
        await this.run((lease) => lease.send({ op: 'listen', channel }));
      } catch (err) {
        this.channels.delete(channel);
        throw err;
      }
    }
    subs.add(sub);
    return async () => {
      const set = this.channels.get(channel);
      if (!set?.delete(sub) || set.size) return;
      this.channels.delete(channel);
      if (!this.gone) await this.run((lease) => lease.send({ op: 'unlisten', channel })).catch(() => undefined);
    };
  }

  /** Lets the units already queued finish, then closes PGlite and ends the worker. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.active || this.platform.length || this.tenant.length) await new Promise<void>((r) => (this.drained = r));
      const gen = this.gen && !this.gen.dead ? this.gen : await this.starting?.catch(() => undefined);
      this.gone ??= connectionLost('the database is closed');
      if (!gen || gen.dead) return;
      await this.send(gen, { op: 'close' }, 10_000, undefined).catch(() => undefined);
      gen.dead = this.gone;
      await gen.worker.terminate();
    })();
    return this.closing;
  }

  /** Posts one request to gen's worker; fails it and kills the worker past timeoutMs. */
  send<T>(gen: Generation, body: RequestBody, timeoutMs: number, caller: string | undefined): Promise<T> {
    if (gen.dead) return Promise.reject(gen.dead);
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { resolve: resolve as (v: unknown) => void, reject };
      if (Number.isFinite(timeoutMs)) {
        // At most setTimeout's longest wait (a longer one would fire at once).
        pending.timer = setTimeout(() => {
          gen.pending.delete(id);
          holdProcess(gen);
          reject(statementTimeout());
          if (caller) this.killed.set(caller, Date.now());
          this.retire(gen, connectionLost('the embedded database was restarted to end a statement that ran past its deadline'), 'a statement ran past its deadline: the embedded database is restarting');
        }, Math.min(Math.max(1, timeoutMs), 2 ** 31 - 1));
      }
      gen.pending.set(id, pending);
      holdProcess(gen);
      gen.worker.postMessage({ ...body, id });
    });
  }

  private pump(): void {
    if (this.active || this.awaitingWorker) return;
    if (!this.platform.length && !this.tenant.length) {
      const old = Date.now() - KILLS_KEPT_MS;
      for (const [caller, at] of this.killed) if (at < old) this.killed.delete(caller);
      this.drained?.();
      return;
    }
    const gen = this.gen && !this.gen.dead ? this.gen : undefined;
    if (!gen) {
      this.awaitingWorker = true;
      this.generation()
        .catch((err: unknown) => {
          // Waiting units fail with the reason (a 503); the next call tries to open it again.
          for (const unit of this.platform.splice(0).concat(this.tenant.splice(0))) unit.reject(err);
        })
        .finally(() => {
          this.awaitingWorker = false;
          this.pump();
        });
      return;
    }
    const unit = (this.platform.shift() ?? this.tenant.shift())!;
    const killedAt = unit.tenant?.caller === undefined ? undefined : this.killed.get(unit.tenant.caller);
    if (killedAt !== undefined && killedAt >= unit.admittedAt) {
      // Admitted before its caller's statement was killed: it would most likely run into the same
      // deadline, and cost everybody another reopening.
      unit.reject(new CallerPaused(this.opts.pauseAfterKillMs));
      return this.pump();
    }
    this.active = unit;
    void this.execute(unit, gen).finally(() => {
      this.active = undefined;
      this.pump();
    });
  }

  private async execute(unit: Unit, gen: Generation): Promise<void> {
    const lease = new Lease(this, gen, unit.timeoutMs, unit.tenant?.caller);
    try {
      unit.resolve(await unit.run(lease));
    } catch (err) {
      unit.reject(err);
    } finally {
      lease.ended = true;
    }
  }

  /** The live worker, started (or restarted) when there is none. */
  private generation(): Promise<Generation> {
    if (this.gone) return Promise.reject(this.gone);
    if (this.gen && !this.gen.dead) return this.gen.ready.then(() => this.gen!);
    this.starting ??= this.spawn().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async spawn(): Promise<Generation> {
    const { script, eval: isEval } = workerScript();
    const load = this.opts.loadDataDir;
    const data: WorkerInit & { pglite: true } = { pglite: true, dataDir: this.opts.dataDir, loadDataDir: load, conf: this.opts.conf };
    // The dump to start from is read once (moved to the worker, not copied): a restart opens the data dir as it is now.
    this.opts.loadDataDir = undefined;
    const worker = new Worker(script, { eval: isEval, workerData: data, transferList: load ? [load] : [] });
    const gen: Generation = { worker, pending: new Map(), ready: Promise.resolve() };
    gen.ready = new Promise<void>((resolve, reject) => {
      let foreign = false;
      worker.on('message', (m: WorkerReply) => {
        if (m.type === 'ready') {
          foreign = !(m.probe instanceof Date);
          return resolve();
        }
        if (m.type === 'failed') return reject(fromWorker(m.error));
        if (m.type === 'notify') return this.notify(m.channel, m.payload);
        const p = gen.pending.get(m.id);
        if (!p) return;
        gen.pending.delete(m.id);
        holdProcess(gen);
        clearTimeout(p.timer);
        if (m.ok) p.resolve(foreign ? inThisRealm(m.result) : m.result);
        else p.reject(fromWorker(m.error));
      });
      const ended = (why: string) => {
        const err = connectionLost(why);
        reject(err);
        // A worker that never became the live one is spawn()'s to clean up.
        if (this.gen === gen && !gen.dead) this.retire(gen, err, why);
      };
      worker.on('error', (err) => ended(`the embedded database stopped: ${err.message}`));
      worker.on('exit', (code) => ended(`the embedded database's worker exited (${code})`));
    });
    try {
      await gen.ready;
      // Listening again before any unit runs: notifications of later commits are not missed.
      for (const channel of this.channels.keys()) await this.send(gen, { op: 'listen', channel }, this.opts.platformTimeoutMs, undefined);
    } catch (err) {
      gen.dead = err as Error;
      void worker.terminate();
      throw err;
    }
    this.gen = gen;
    holdProcess(gen);
    return gen;
  }

  /** Ends gen: its statements in flight fail with err, listeners hear of the gap, a new worker is started. */
  private retire(gen: Generation, err: Error, why: string): void {
    if (gen.dead) return;
    gen.dead = err;
    for (const p of gen.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    gen.pending.clear();
    void gen.worker.terminate();
    if (this.gone || this.closing) return;
    if (!this.opts.dataDir) {
      // memory:// lives in the worker's memory only: it is gone with it. Failing every call from
      // now on is the only honest answer; reopening an empty database would lose data silently.
      this.gone = connectionLost('the in-memory database was lost with its worker (restart the server)');
      this.opts.log?.error({ reason: why }, 'the in-memory embedded database was lost: every database call fails until the server restarts');
      for (const unit of this.platform.splice(0).concat(this.tenant.splice(0))) unit.reject(this.gone);
      return;
    }
    this.opts.log?.warn({ reason: why }, 'embedded database: reopening its data dir in a new worker');
    const subs = [...this.channels.values()].flatMap((s) => [...s]);
    for (const s of subs) s.onGap?.();
    this.generation().then(
      () => subs.forEach((s) => s.onResume?.()),
      (e: Error) => this.opts.log?.error({ err: e }, 'embedded database: reopening failed; the next call tries again'),
    );
  }

  private notify(channel: string, payload: string): void {
    for (const s of this.channels.get(channel) ?? []) s.onPayload(payload);
  }
}
