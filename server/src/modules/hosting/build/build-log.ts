// A deployment's build log: the platform's own steps (timestamped lines) and a build's output as
// it comes, kept in site_deployments.build_log. While a build from source runs, what is new is
// appended every FLUSH_MS so any instance can stream it (streamDeploymentLog); it only ever
// grows, so a reader's offset stays valid. Past MAX_LOG_BYTES the build's output is dropped (one
// line says so) but the platform's own lines (failed, live) are still added.
import type { Clock } from '../../../platform/clock';

export const MAX_LOG_CHARS = 1024 * 1024;
const FLUSH_MS = 300;

export class BuildLog {
  private text_ = '';
  private truncated = false;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  /** How much of the text the database has (appends go in order: one flush at a time). */
  private written: number;

  constructor(
    private readonly clock: Clock,
    /** Appends what is new to the stored log while a build runs. */
    private readonly sink?: (appended: string) => Promise<void>,
    /** The log so far, stored already (a build taken from the queue goes on where the upload's instance stopped). */
    initial = '',
  ) {
    this.text_ = initial;
    this.written = initial.length;
  }

  /** One of the platform's own steps. */
  add(line: string): void {
    this.text_ += `[${this.clock.now().toISOString()}] ${line}\n`;
    this.changed();
  }

  /** Output of the build's commands, as it comes (bounded). */
  raw(chunk: string): void {
    if (this.truncated) return;
    if (this.text_.length + chunk.length > MAX_LOG_CHARS) {
      this.truncated = true;
      this.text_ += `\n[the build's output passed ${MAX_LOG_CHARS / 1024 / 1024} MiB; the rest is not kept]\n`;
    } else {
      this.text_ += chunk;
    }
    this.changed();
  }

  get text(): string {
    return this.text_;
  }

  private changed(): void {
    if (!this.sink) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_MS);
  }

  /** Writes what is new now (the last write before the build's row is finished or failed). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (!this.sink || this.written >= this.text_.length) return;
    const upTo = this.text_.length;
    // A failed append is sent again with the next one (written only moves on success).
    this.flushing = this.sink(this.text_.slice(this.written, upTo)).then(
      () => void (this.written = upTo),
      () => undefined,
    );
    await this.flushing;
  }
}
