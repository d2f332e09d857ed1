/**
 * Work started beside a producer, at most `limit` at a time (instant-deploy.ts stores uploaded
 * blobs while the next ones are read). start() waits while `limit` tasks run; the first failure
 * is kept and thrown by check() and by the next start(); settle() waits for every task started.
 */
export class BoundedTasks {
  private readonly running = new Set<Promise<void>>();
  private failure?: { err: unknown };

  constructor(private readonly limit: number) {}

  /** Throws the first failure so far, if any. */
  check(): void {
    if (this.failure) throw this.failure.err;
  }

  /** Starts `task` (after check()), then waits until fewer than `limit` run. */
  async start(task: () => Promise<void>): Promise<void> {
    this.check();
    const p: Promise<void> = Promise.resolve()
      .then(task)
      .catch((err: unknown) => void (this.failure ??= { err }))
      .finally(() => this.running.delete(p));
    this.running.add(p);
    while (this.running.size >= this.limit) await Promise.race(this.running);
  }

  /** Waits for every task started; never throws (call check() after). */
  async settle(): Promise<void> {
    await Promise.all(this.running);
  }
}
