import { fakeStream, mockFetch } from '../test/utils';
import { ApiError, readEventStream } from './http';
import { sseParser, type SseEvent } from './sse';

// What the server writes (build-log-stream.ts): log events, a keep-alive comment, the end.
const WIRE = 'event: log\ndata: {"text":"npm ci\\n"}\n\n: still building\n\nevent: log\ndata: {"text":"vite build\\n"}\n\nevent: end\ndata: {"status":"live","error":null}\n\n';
const EVENTS: SseEvent[] = [
  { event: 'log', data: '{"text":"npm ci\\n"}' },
  { event: 'log', data: '{"text":"vite build\\n"}' },
  { event: 'end', data: '{"status":"live","error":null}' },
];

it('gives several events from one chunk, and the same events however the chunks are split', () => {
  expect(sseParser()(WIRE)).toEqual(EVENTS);
  for (let at = 0; at <= WIRE.length; at++) {
    for (const size of [1, 7]) {
      // Split at every place (mid-field, between \n\n, inside the JSON), then in small pieces after it.
      const parse = sseParser();
      const got = parse(WIRE.slice(0, at));
      for (let i = at; i < WIRE.length; i += size) got.push(...parse(WIRE.slice(i, i + size)));
      expect(got).toEqual(EVENTS);
    }
  }
});

it('holds an unfinished frame until its blank line arrives', () => {
  const parse = sseParser();
  expect(parse('event: log\ndata: {"text":"a"}\n')).toEqual([]);
  expect(parse('\nevent: end\ndata: {}')).toEqual([{ event: 'log', data: '{"text":"a"}' }]);
  expect(parse('\n\n')).toEqual([{ event: 'end', data: '{}' }]);
});

it('reads CRLF (split between chunks), multi-line data, fields without a space, and skips frames without data', () => {
  const parse = sseParser();
  const got = [...parse('\ufeffevent: log\r'), ...parse('\ndata:one\r\ndata: two\r'), ...parse('\n\r\nevent: nothing\n\nid: 4\nretry: 10\ndata\n\n')];
  expect(got).toEqual([
    { event: 'log', data: 'one\ntwo' },
    { event: 'message', data: '' },
  ]);
});

it('readEventStream: decodes a character split across chunks and stops at the end of the stream', async () => {
  const stream = fakeStream();
  const seen: string[] = [];
  const fetchMock = mockFetch((path) => (path === '/api/stream' ? { stream } : { status: 404, body: { message: 'no' } }));
  localStorage.setItem('token', 'dev-token');
  const done = readEventStream('/stream', (e) => seen.push(`${e.event} ${e.data}`));
  const bytes = new TextEncoder().encode('event: log\ndata: {"text":"é ✓"}\n\n');
  const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
  stream.sendBytes(bytes.slice(0, cut));
  stream.sendBytes(bytes.slice(cut));
  stream.end();
  await done;
  expect(seen).toEqual(['log {"text":"é ✓"}']);
  const init = fetchMock.mock.calls[0][1] as RequestInit;
  expect(init.method).toBe('GET');
  expect(new Headers(init.headers).get('authorization')).toBe('Bearer dev-token');
});

it('readEventStream: a refusal is an ApiError with the server\'s message', async () => {
  mockFetch(() => ({ status: 404, body: { message: 'Deployment not found', code: 'NOT_FOUND' } }));
  const err = await readEventStream('/stream', () => undefined).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 404, message: 'Deployment not found' });
});
