import { Writable } from 'node:stream';
import { chooseLogFormat, loggerOptions } from './log-format';

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
