// One SSE client of live changes: its events in order, a bounded queue while its socket is full.
import type { Writable } from 'node:stream';
import type { ChangesLimits } from './changes.limits';

/**
 * The credentials a stream was opened with: `id` groups streams opened with the same ones (one
 * check for all of them); `stillValid` resolves false once they would be refused.
 */
export interface Credential {
  id: string;
  stillValid(): Promise<boolean>;
}

/** One SSE client: its events in order, a bounded queue while its socket is full. */
export class Subscriber {
  private readonly queued: string[] = [];
  private waiting = false;
  private closed = false;

  constructor(
    readonly projectId: string,
    readonly table: string,
    /** The signed-in end user of the stream, or null (the key alone). */
    readonly endUserId: string | null,
    private readonly out: Writable,
    private readonly limits: Pick<ChangesLimits, 'queuedEvents' | 'endGraceMs'>,
    /** What the stream was opened with, checked again every recheckMs. */
    readonly credential?: Credential,
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

  private write(chunk: string): void {
    if (this.isClosed) return;
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
