import { Writable } from 'node:stream';
import { chooseLogFormat, loggerOptions, PRETTY_LINES } from './log-format';

test.each([
  ['auto', true, true, 'pretty'],
  ['auto', false, true, 'json'],
  ['auto', undefined, true, 'json'],
  ['auto', true, false, 'json'],
  ['json', true, true, 'json'],
  ['json', false, true, 'json'],
] as const)('LOG_FORMAT %s, stdout a terminal: %s, pino-pretty installed: %s -> %s', (configured, tty, installed, expected) => {
  expect(chooseLogFormat(configured, tty, installed)).toBe(expected);
});

const stdout = (isTTY: boolean) => Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY }) as unknown as NodeJS.WriteStream;

test('JSON lines: only the level, for pino to write to stdout as before', () => {
  expect(loggerOptions({ logLevel: 'warn', logFormat: 'auto' }, stdout(false))).toEqual({ level: 'warn' });
  expect(loggerOptions({ logLevel: 'info', logFormat: 'json' }, stdout(true))).toEqual({ level: 'info' });
});

test('on a terminal a request is one line with its method, url, status, time, operationId and request id', async () => {
  // pino-pretty itself, with our options: what a developer's terminal shows.
  const { prettyFactory } = (await import('pino-pretty')) as unknown as { prettyFactory: (o: object) => (line: string) => string };
  const prettify = prettyFactory({ colorize: false, ...PRETTY_LINES });
  const request = { level: 30, time: 1, pid: 7, hostname: 'h', reqId: 'r-123', operationId: 'getContainerStats', method: 'GET', url: '/api/x?y=1', status: 200, ms: 3.2, msg: 'request completed' };
  const out = prettify(JSON.stringify(request));
  expect(out.trimEnd().split('\n')).toHaveLength(1);
  expect(out).toContain('GET /api/x?y=1 200 3.2 ms (getContainerStats req r-123)');
  // Another line of the request keeps its id, and its other fields stay on the same line.
  const other = prettify(JSON.stringify({ level: 40, time: 1, reqId: 'r-123', operationId: 'createProject', msg: 'slow', waitedMs: 9 }));
  expect(other.trimEnd().split('\n')).toHaveLength(1);
  expect(other).toContain('slow (createProject req r-123)');
  expect(other).toContain('"waitedMs":9');
});
