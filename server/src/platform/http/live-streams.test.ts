// The live-stream hub (live-streams.ts): caps per key and in all answer the same 429 (message,
// Retry-After) as the streams that use it; a closed stream gives its slot back; quiet streams get
// the heartbeat; shutdown ends every stream and refuses new ones.
import { PassThrough } from 'node:stream';
import { AppError } from '../errors';
import { LiveStream, LiveStreams } from './live-streams';

const limits = { keepAliveMs: 20, queuedEvents: 10, endGraceMs: 50 };

function refusalOf(fn: () => unknown): { status: number; message: string; headers?: Record<string, string> } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.statusCode, message: err.message, headers: err.headers };
  }
}

const closed = (out: PassThrough) => new Promise<void>((r) => (out.closed ? setImmediate(r) : out.once('close', () => setImmediate(r))));

describe('LiveStreams', () => {
  const hubs: LiveStreams[] = [];
  afterEach(() => hubs.splice(0).forEach((h) => h.endAll()));
  const hub = () => {
    const h = new LiveStreams({ limits, heartbeat: 'still here' });
    hubs.push(h);
    return h;
  };
  const caps = (key: string) => [
    { key, max: 2, refusal: `You have 2 streams open on this server; close one or try again later` },
    { max: 3, refusal: 'This server has too many streams open; try again later' },
  ];

  test('past a key cap, then past the total: 429 with the cap\'s own message and Retry-After; a closed stream frees its slot', async () => {
    const h = hub();
    const a1 = h.admit(new LiveStream(new PassThrough(), limits), caps('a'));
    h.admit(new LiveStream(new PassThrough(), limits), caps('a'));
    expect(refusalOf(() => h.admit(new LiveStream(new PassThrough(), limits), caps('a')))).toEqual({
      status: 429,
      message: 'You have 2 streams open on this server; close one or try again later',
      headers: { 'retry-after': '30' },
    });
    // Another key still has room under its own cap, until the total is reached.
    h.admit(new LiveStream(new PassThrough(), limits), caps('b'));
    expect(h.size).toBe(3);
    expect(refusalOf(() => h.admit(new LiveStream(new PassThrough(), limits), caps('b')))?.message).toBe('This server has too many streams open; try again later');

    // Closing one of a's streams gives back both its slots: a's and the total's.
    let released = 0;
    a1.out.destroy();
    await closed(a1.out as PassThrough);
    expect(h.size).toBe(2);
    expect(refusalOf(() => h.admit(new LiveStream(new PassThrough(), limits), caps('a'), () => released++))).toBeUndefined();
    expect(h.size).toBe(3);
    expect(released).toBe(0);
  });

  test('the release callback runs once, when the stream closes (ended by the server or gone with the client)', async () => {
    const h = hub();
    let released = 0;
    const s = h.admit(new LiveStream(new PassThrough(), limits), caps('a'), () => released++);
    (s.out as PassThrough).resume(); // a client reading: the end goes through
    s.end();
    s.end();
    await closed(s.out as PassThrough);
    expect(released).toBe(1);
    expect(h.size).toBe(0);
  });

  test('a quiet stream gets the heartbeat comment; a stream that was written to in the period does not', async () => {
    const h = hub();
    const quiet = new PassThrough();
    const busy = new PassThrough();
    const text = { quiet: '', busy: '' };
    quiet.on('data', (c: Buffer) => (text.quiet += c.toString()));
    busy.on('data', (c: Buffer) => (text.busy += c.toString()));
    h.admit(new LiveStream(quiet, limits), caps('a'));
    const b = h.admit(new LiveStream(busy, limits), caps('b'));
    const writing = setInterval(() => b.send('tick', {}), 5);
    for (let i = 0; i < 100 && !text.quiet.includes(': still here'); i++) await new Promise((r) => setTimeout(r, 10));
    clearInterval(writing);
    expect(text.quiet).toContain(': still here\n\n');
    expect(text.busy).toContain('event: tick');
    expect(text.busy).not.toContain('still here');
  });

  test('at shutdown every stream ends and a new one is refused with 503', async () => {
    const h = hub();
    const s = h.admit(new LiveStream(new PassThrough(), limits), caps('a'));
    (s.out as PassThrough).resume();
    h.endAll();
    await closed(s.out as PassThrough);
    expect(h.size).toBe(0);
    expect(refusalOf(() => h.admit(new LiveStream(new PassThrough(), limits), caps('a')))).toMatchObject({ status: 503, message: 'The server is shutting down' });
  });
});
