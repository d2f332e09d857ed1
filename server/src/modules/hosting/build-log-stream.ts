// streamDeploymentLog: a deployment's build log as Server-Sent Events. The log lives in the
// database and only grows while the build runs (build-log.ts), so any instance can follow a build
// running on another by reading what is new since its offset. Events: `log` {text} for each new
// piece, then `end` {status, error} once the deployment is live or failed, and the stream closes.
import { PassThrough } from 'node:stream';

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  // nginx and similar proxies would otherwise hold events back in their buffers.
  'x-accel-buffering': 'no',
};

export interface BuildState {
  status: 'building' | 'live' | 'failed';
  error: string | null;
  log: string;
}

const POLL_MS = 500;
const KEEPALIVE_MS = 15_000;

export function followBuildLog(read: (deploymentId: string) => Promise<BuildState | undefined>, deploymentId: string, pollMs = POLL_MS): PassThrough {
  const out = new PassThrough();
  let sent = 0;
  let closed = false;
  let lastWrite = Date.now();
  const send = (event: string, data: unknown) => {
    out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    lastWrite = Date.now();
  };
  out.once('close', () => (closed = true));
  const tick = async () => {
    if (closed) return;
    let state: BuildState | undefined;
    try {
      state = await read(deploymentId);
    } catch {
      // The database is away for a moment: try again at the next tick.
      schedule();
      return;
    }
    if (closed) return;
    if (!state) {
      send('end', { status: 'failed', error: 'The deployment was removed.' });
      out.end();
      return;
    }
    if (state.log.length > sent) {
      send('log', { text: state.log.slice(sent) });
      sent = state.log.length;
    }
    if (state.status !== 'building') {
      send('end', { status: state.status, error: state.error });
      out.end();
      return;
    }
    if (Date.now() - lastWrite >= KEEPALIVE_MS) {
      out.write(': still building\n\n');
      lastWrite = Date.now();
    }
    schedule();
  };
  const schedule = () => {
    if (!closed) setTimeout(() => void tick(), pollMs).unref();
  };
  void tick();
  return out;
}
