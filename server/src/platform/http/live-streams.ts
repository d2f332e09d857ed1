// Live streams (Server-Sent Events) of one instance, whatever they carry: a table's row changes
// (modules/database/changes.ts), a build's log (modules/hosting/build/build-log-stream.ts). One
// place for what every such stream needs: caps on open streams (per key and in all, past them the
// same 429 with Retry-After), heartbeats on quiet streams, a bounded queue for a slow client
// (back-pressure: it falls too far behind and is dropped with an `error` event, never holding
// memory without bound), and a clean close that releases its slot.
//
// What is shared across instances, and what is not: nothing here. Each instance keeps its own
// streams and counts them itself, so the caps are per instance (a client spread over N instances
// behind a load balancer may hold N times a cap; each cap's message says "on this server"). What a
// stream carries reaches every instance through the database, never through this hub: row changes
// by PostgreSQL LISTEN/NOTIFY, build logs by reading the log's new characters.
import type { Writable } from 'node:stream';
import { AppError, ErrorCode, Errors } from '../errors';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // nginx and similar proxies would otherwise hold events back in their buffers.
  'x-accel-buffering': 'no',
};

/** How one stream treats a slow client, and a client that stops reading after the end. */
export interface StreamLimits {
  /** Events waiting for one slow client; past it the stream ends with an `error` event. */
  queuedEvents: number;
  /** A stream ended while its client reads nothing is cut after this long. */
  endGraceMs: number;
}

/** One SSE client: its frames in order, a bounded queue while its socket is full, a clean end. */
export class LiveStream {
  private readonly queued: string[] = [];
  private waiting = false;
  private closed = false;
  /** Whether anything was written since the last heartbeat tick (LiveStreams). */
  wrote = false;

  constructor(
    readonly out: Writable,
    private readonly limits: StreamLimits,
  ) {}

  get isClosed(): boolean {
    return this.closed || this.out.destroyed;
  }

  send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** A comment line (keep-alive); skipped while events are waiting anyway. */
  comment(text: string): void {
    if (!this.waiting) this.write(`: ${text}\n\n`);
  }

  /** Ends the stream with a final `error` event (written even past the queue: one small chunk). */
  fail(message: string): void {
    if (this.isClosed) return;
    this.queued.length = 0;
    this.out.write(`event: error\ndata: ${JSON.stringify({ message })}\n\n`);
    this.end();
  }

  /** Ends the stream cleanly; a client that reads nothing more is cut after a grace period. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.queued.length = 0;
    this.out.end();
    setTimeout(() => this.out.destroy(), this.limits.endGraceMs).unref();
  }

  /** A whole SSE frame (or comment), in order after the ones before it. */
  write(chunk: string): void {
    if (this.isClosed) return;
    this.wrote = true;
    if (this.waiting) {
      if (this.queued.length >= this.limits.queuedEvents) {
        this.fail(`This stream fell behind by ${this.limits.queuedEvents} events and was closed; reconnect and re-read`);
        return;
      }
      this.queued.push(chunk);
      return;
    }
    if (!this.out.write(chunk)) this.wait();
  }

  private wait(): void {
    this.waiting = true;
    this.out.once('drain', this.flush);
  }

  private readonly flush = (): void => {
    this.waiting = false;
    while (this.queued.length && !this.isClosed) {
      if (!this.out.write(this.queued.shift()!)) return this.wait();
    }
  };
}

/**
 * One cap on open streams: at most `max` open streams with this `key` (the keys of one hub share
 * one namespace), or with no key at most `max` open streams of the hub in all. Past it: 429 with
 * `refusal` as the message.
 */
export interface Cap {
  key?: string;
  max: number;
  refusal: string;
}

export interface LiveStreamsOptions {
  /** Read when the heartbeat starts (the first stream after none): a quiet stream gets a comment each period. */
  limits: { keepAliveMs: number };
  /** The heartbeat comment's text. */
  heartbeat: string;
}

/** The open streams of one kind on this instance: their caps, their heartbeat, their end at shutdown. */
export class LiveStreams {
  private readonly streams = new Set<LiveStream>();
  private readonly counts = new Map<string, number>();
  private heartbeat?: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly opts: LiveStreamsOptions) {}

  /** Streams open on this instance (tests, health). */
  get size(): number {
    return this.streams.size;
  }

  /** 503 once the server is shutting down (endAll). */
  assertOpen(): void {
    if (this.closing) throw Errors.unavailable('The server is shutting down');
  }

  /**
   * Counts `stream` under each cap, checked in order (the first it would pass is the answer: 429,
   * Retry-After 30), before anything is written to it. Its slots are released when its `out`
   * closes (the client went away, or the stream ended), and then `onClose` runs.
   */
  admit<S extends LiveStream>(stream: S, caps: Cap[], onClose?: () => void): S {
    this.assertOpen();
    for (const cap of caps) {
      const open = cap.key === undefined ? this.streams.size : (this.counts.get(cap.key) ?? 0);
      if (open >= cap.max) throw new AppError(429, ErrorCode.RateLimited, cap.refusal, { 'retry-after': '30' });
    }
    const keys = caps.flatMap((c) => (c.key === undefined ? [] : [c.key]));
    for (const key of keys) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.streams.add(stream);
    this.beat();
    stream.out.once('close', () => {
      if (!this.streams.delete(stream)) return;
      for (const key of keys) {
        const n = (this.counts.get(key) ?? 1) - 1;
        if (n > 0) this.counts.set(key, n);
        else this.counts.delete(key);
      }
      if (!this.streams.size) this.stopBeating();
      onClose?.();
    });
    return stream;
  }

  /** Ends every stream and refuses new ones (preClose: the server can't close while they are open). */
  endAll(): void {
    this.closing = true;
    this.stopBeating();
    for (const stream of this.streams) stream.end();
  }

  private beat(): void {
    this.heartbeat ??= setInterval(() => {
      for (const stream of this.streams) {
        if (!stream.wrote) stream.comment(this.opts.heartbeat);
        stream.wrote = false;
      }
    }, this.opts.limits.keepAliveMs).unref();
  }

  private stopBeating(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
