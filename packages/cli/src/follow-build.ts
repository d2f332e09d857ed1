// `hostbase deploy` after a 202: the build's log (streamDeploymentLog, Server-Sent Events) printed
// as it comes, until its `end` event says live or failed. Read with fetch, which can send the
// developer's token (EventSource cannot). The log only grows and each connection replays it from
// its first line, so after a dropped connection the follower reconnects and prints only what it
// had not printed yet.

import { sseParser, type SseEvent } from './sse.js';

export { sseParser, type SseEvent };

export interface BuildEnd {
  status: 'live' | 'failed';
  error: string | null;
}

/** The server refused the stream (its message), or the stream could not be kept. */
export class FollowError extends Error {}

export interface FollowOptions {
  /** The stream's full URL (…/api/project/{id}/deployments/{id}/log-stream). */
  url: string;
  token: string;
  /** Gets the log's text as it comes. */
  write: (text: string) => void;
  /** Connections that may drop before the end before the follower gives up (default 5). */
  reconnects?: number;
  /** Wait before reconnecting (default 1000 ms). */
  retryMs?: number;
  signal?: AbortSignal;
}

function json(data: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const reason = (err: unknown) => (err as { cause?: Error }).cause?.message ?? (err as Error).message;

/** Follows a build to its end; rejects with FollowError when the server refuses or keeps dropping the stream. */
export async function followBuild(o: FollowOptions): Promise<BuildEnd> {
  let printed = 0;
  let drops = 0;
  const allowed = o.reconnects ?? 5;
  for (;;) {
    let seen = 0;
    let end: BuildEnd | undefined;
    const onEvent = (e: SseEvent) => {
      const data = json(e.data);
      if (e.event === 'log' && typeof data.text === 'string') {
        // A reconnection replays the log: only its part past what was printed is new.
        const text = data.text;
        const from = Math.max(0, printed - seen);
        seen += text.length;
        if (from < text.length) {
          o.write(text.slice(from));
          printed += text.length - from;
        }
      } else if (e.event === 'end') {
        end = { status: data.status === 'live' ? 'live' : 'failed', error: typeof data.error === 'string' && data.error ? data.error : null };
      }
    };
    let lost: string;
    try {
      await readStream(o, onEvent);
      if (end) return end;
      lost = 'the stream closed before the build ended';
    } catch (err) {
      if (err instanceof FollowError || o.signal?.aborted) throw err;
      if (end) return end;
      lost = reason(err);
    }
    if (++drops > allowed) throw new FollowError(`Lost the build log (${lost}).`);
    await new Promise((r) => setTimeout(r, o.retryMs ?? 1000));
  }
}

async function readStream(o: FollowOptions, onEvent: (e: SseEvent) => void): Promise<void> {
  const res = await fetch(o.url, { headers: { authorization: `Bearer ${o.token}`, accept: 'text/event-stream' }, signal: o.signal });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    const message = json(text).message;
    throw new FollowError(typeof message === 'string' ? message : `HTTP Error: ${res.status}`);
  }
  if (!res.body) throw new FollowError('The build log answered without a body.');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const parse = sseParser();
  for (;;) {
    const { done, value } = await reader.read();
    // stream: a character split between two chunks is decoded once both arrived.
    for (const e of parse(done ? decoder.decode() : decoder.decode(value, { stream: true }))) onEvent(e);
    if (done) return;
  }
}
