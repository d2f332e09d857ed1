// The bounds of build-log streams on one instance that the API-level test (build-log-stream.test.ts)
// does not reach with real requests: the cap over all accounts, each stream's time limit and the
// end of every stream at shutdown. The log is an in-memory one behind the reader the repository
// provides (HostingRepository.buildLogPart's contract: characters from an offset, status, length).
import type { PassThrough } from 'node:stream';
import { BUILD_LOG_LIMITS, BuildLogStreams } from '../../server/src/modules/hosting/build/build-log-stream';
import type { BuildLogPart } from '../../server/src/modules/hosting/hosting.repository';

const building: { status: BuildLogPart['status']; log: string } = { status: 'building', log: 'Installing\n' };
const read = async (_p: string, _d: string, from: number, upTo?: number): Promise<BuildLogPart> => ({
  status: building.status,
  error: null,
  length: building.log.length,
  text: building.log.slice(from, upTo),
});

/** What a stream wrote until it ended, and whether it did. */
function collect(out: PassThrough): { text: () => string; ended: Promise<void> } {
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString()));
  return { text: () => text, ended: new Promise((r) => out.once('close', () => r())) };
}

const limits = { ...BUILD_LOG_LIMITS, perAccount: 5, total: 8, pollMs: 20 };

test('past the cap over all accounts a stream is a 429; a closed one frees its place', async () => {
  const streams = new BuildLogStreams(read, 60_000, limits);
  const open = Array.from({ length: 8 }, (_, i) => streams.open(`account-${i % 4}`, 'p', 'd'));
  expect(streams.size).toBe(8);
  expect(() => streams.open('account-new', 'p', 'd')).toThrow(expect.objectContaining({ statusCode: 429, message: 'This server has too many build-log streams open; try again later' }));
  const first = collect(open[0]);
  open[0].destroy();
  await first.ended;
  expect(streams.size).toBe(7);
  const again = streams.open('account-new', 'p', 'd');
  expect(streams.size).toBe(8);
  streams.endAll();
  for (const s of [...open, again]) s.destroy();
});

test('a stream ends at its time limit, saying so, and its count goes down', async () => {
  const streams = new BuildLogStreams(read, 150, limits);
  const out = streams.open('a', 'p', 'limit');
  const seen = collect(out);
  await seen.ended;
  expect(seen.text()).toContain('Installing');
  expect(seen.text()).toContain(': this stream reached its time limit; reconnect');
  expect(seen.text()).not.toContain('event: end');
  expect(streams.size).toBe(0);
  expect(streams.polling).toBe(0);
  streams.endAll();
});

test('at shutdown every stream ends, polling stops and no new stream opens', async () => {
  const streams = new BuildLogStreams(read, 60_000, limits);
  const outs = [streams.open('a', 'p', 'd1'), streams.open('b', 'p', 'd2'), streams.open('b', 'p', 'd2')];
  const seen = outs.map(collect);
  expect(streams.polling).toBe(2);
  streams.endAll();
  await Promise.all(seen.map((s) => s.ended));
  expect(streams.size).toBe(0);
  expect(streams.polling).toBe(0);
  expect(() => streams.open('c', 'p', 'd3')).toThrow(expect.objectContaining({ statusCode: 503 }));
});
