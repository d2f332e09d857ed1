// A deployment's build log: the platform's own steps (timestamped lines) and a build's output as
// it comes, kept in site_deployments.build_log. While a build from source runs, the text is
// written back every FLUSH_MS so any instance can stream it (streamDeploymentLog); it only ever
// grows, so a reader's offset stays valid. Past MAX_LOG_BYTES the build's output is dropped (one
// line says so) but the platform's own lines (failed, live) are still added.
import type { Clock } from '../../lib/clock';

export const MAX_LOG_CHARS = 1024 * 1024;
const FLUSH_MS = 300;

export class BuildLog {
  private text_ = '';
  private truncated = false;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private dirty = false;

  constructor(
    private readonly clock: Clock,
    /** Where the text is written while a build runs (none for uploads that are not built). */
    private readonly sink?: (text: string) => Promise<void>,
    /** The log so far (a build taken from the queue goes on where the upload's instance stopped). */
    initial = '',
  ) {
    this.text_ = initial;
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
    this.dirty = true;
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
    if (!this.sink || !this.dirty) return;
    this.dirty = false;
    this.flushing = this.sink(this.text_).catch(() => undefined); // a lost write is caught up by the next
    await this.flushing;
  }
}
