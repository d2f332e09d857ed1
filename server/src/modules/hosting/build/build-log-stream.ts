// streamDeploymentLog: a deployment's build log as Server-Sent Events. The log lives in the
// database and only grows while the build runs (build-log.ts), so any instance can follow a build
// running on another by reading what is new since its offset. Events: `log` {text} for each new
// piece, then `end` {status, error} once the deployment is live or failed, and the stream closes.
// Cheap and bounded on each instance: the streams of one deployment share one poll loop that
// reads only the log's new characters; caps per account and in total, heartbeats, slow clients
// and closing are the platform's live-stream hub's (platform/http/live-streams.ts).
import { PassThrough } from 'node:stream';
import { LiveStream, LiveStreams } from '../../../platform/http/live-streams';
import type { BuildLogPart } from '../hosting.repository';

export const BUILD_LOG_LIMITS = {
  /** Open streams of one account on one instance; more is a 429. */
  perAccount: 20,
  /** Open streams on one instance, all accounts. */
  total: 2000,
  pollMs: 500,
  keepAliveMs: 15_000,
  /** Frames waiting for one slow client; past it the stream ends with an `error` event. */
  queuedEvents: 1000,
  /** A stream ended while its client reads nothing is cut after this long. */
  endGraceMs: 10_000,
  /** A stream ends after the build timeout plus this (a stuck 'building' row can't hold it); clients reconnect. */
  marginMs: 5 * 60_000,
};
export type BuildLogLimits = typeof BUILD_LOG_LIMITS;

/** The log from character `from` (to `upTo`), with status and whole length (HostingRepository.buildLogPart). */
export type ReadLogPart = (projectId: string, deploymentId: string, from: number, upTo?: number) => Promise<BuildLogPart | undefined>;

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** One open stream. A late joiner holds the loop's frames back until the log's start it missed is written. */
class Follower extends LiveStream {
  private held?: (string | null)[];
  /** Ends the stream at its time limit. */
  expire?: NodeJS.Timeout;
  constructor(out: PassThrough, limits: BuildLogLimits, catchingUp: boolean) {
    super(out, limits);
    if (catchingUp) this.held = [];
  }

  /** A frame, or null for the end of the stream. */
  push(f: string | null): void {
    if (this.held) this.held.push(f);
    else if (f === null) this.end();
    else this.write(f);
  }

  caughtUp(head: string): void {
    const held = this.held ?? [];
    this.held = undefined;
    if (head) this.push(frame('log', { text: head }));
    for (const f of held) this.push(f);
  }

  /** Ends now, whatever is held (shutdown, the log's start could not be read): the client reconnects. */
  close(): void {
    this.held = undefined;
    this.push(null);
  }
}

/** The poll loop of one deployment, shared by its streams on this instance. */
interface Loop {
  key: string;
  projectId: string;
  deploymentId: string;
  followers: Set<Follower>;
  /** Characters of the log already sent to the loop's followers (SQL length). */
  offset: number;
  timer?: NodeJS.Timeout;
  stopped: boolean;
}

export class BuildLogStreams {
  private readonly loops = new Map<string, Loop>();
  private readonly streams: LiveStreams;

  constructor(
    private readonly read: ReadLogPart,
    private readonly maxAgeMs: number,
    private readonly limits: BuildLogLimits = BUILD_LOG_LIMITS,
  ) {
    this.streams = new LiveStreams({ limits, heartbeat: 'still building' });
  }

  /** Streams open on this instance (tests, health). */
  get size(): number {
    return this.streams.size;
  }

  /** Poll loops running on this instance: one per deployment followed. */
  get polling(): number {
    return this.loops.size;
  }

  /** Whether the deployment exists, without reading its log. */
  async exists(projectId: string, deploymentId: string): Promise<boolean> {
    return (await this.read(projectId, deploymentId, 0, 0)) !== undefined;
  }

  /** A new stream of the deployment's log from its first character; 429 past the caps. Counted until `out` closes. */
  open(accountId: string, projectId: string, deploymentId: string): PassThrough {
    const key = `${projectId}/${deploymentId}`;
    const existing = this.loops.get(key);
    const loop = existing ?? { key, projectId, deploymentId, followers: new Set<Follower>(), offset: 0, stopped: false };
    const out = new PassThrough();
    const from = loop.offset;
    const follower: Follower = this.streams.admit(
      new Follower(out, this.limits, from > 0),
      [
        { key: accountId, max: this.limits.perAccount, refusal: `You have ${this.limits.perAccount} build-log streams open on this server; close one or try again later` },
        { max: this.limits.total, refusal: 'This server has too many build-log streams open; try again later' },
      ],
      (): void => {
        clearTimeout(follower.expire);
        this.release(loop, follower);
      },
    );
    if (!existing) this.loops.set(key, loop);
    // A comment at once: the headers go out with it, so a client sees the stream open before the log's first line.
    follower.comment('following the build log');
    loop.followers.add(follower);
    follower.expire = setTimeout(() => {
      follower.push(': this stream reached its time limit; reconnect\n\n');
      follower.push(null);
    }, this.maxAgeMs).unref();
    if (from > 0) void this.catchUp(loop, follower, from);
    if (!existing) void this.tick(loop);
    return out;
  }

  /** Ends every stream (preClose: the server can't close while they are open). */
  endAll(): void {
    for (const loop of [...this.loops.values()]) this.stop(loop);
    this.streams.endAll();
  }

  private release(loop: Loop, follower: Follower): void {
    if (!loop.followers.delete(follower)) return;
    if (!loop.followers.size) this.stop(loop);
  }

  private stop(loop: Loop): void {
    loop.stopped = true;
    clearTimeout(loop.timer);
    if (this.loops.get(loop.key) === loop) this.loops.delete(loop.key);
  }

  /** The part of the log a late joiner missed: [0, upTo), what the loop had sent before it joined. */
  private async catchUp(loop: Loop, follower: Follower, upTo: number): Promise<void> {
    const head = await this.read(loop.projectId, loop.deploymentId, 0, upTo).catch(() => undefined);
    if (head) follower.caughtUp(head.text);
    else follower.close();
  }

  private async tick(loop: Loop): Promise<void> {
    if (loop.stopped) return;
    let part: BuildLogPart | undefined;
    try {
      part = await this.read(loop.projectId, loop.deploymentId, loop.offset);
    } catch {
      // The database is away for a moment: try again at the next tick.
      return this.schedule(loop);
    }
    if (loop.stopped) return;
    if (!part) return this.finish(loop, { status: 'failed', error: 'The deployment was removed.' });
    // Offsets are the database's character counts: a JS length would count an emoji twice.
    if (part.length > loop.offset) {
      this.broadcast(loop, frame('log', { text: part.text }));
      loop.offset = part.length;
    }
    if (part.status !== 'building') return this.finish(loop, { status: part.status, error: part.error });
    this.schedule(loop);
  }

  private schedule(loop: Loop): void {
    if (!loop.stopped) loop.timer = setTimeout(() => void this.tick(loop), this.limits.pollMs).unref();
  }

  private broadcast(loop: Loop, f: string): void {
    for (const follower of loop.followers) follower.push(f);
  }

  /** The build ended: every stream gets `end` and closes; a stream opened later starts a new loop. */
  private finish(loop: Loop, end: { status: string; error: string | null }): void {
    this.stop(loop);
    this.broadcast(loop, frame('end', end));
    for (const follower of loop.followers) follower.push(null);
  }
}
