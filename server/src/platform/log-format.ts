// Which log lines the server writes: JSON lines for collectors (and anything that is not a
// person), readable coloured lines for a developer watching a terminal. pino-pretty is a dev
// dependency: a production install without it keeps JSON lines rather than failing to start.
import type { Config } from '../config';

export type LogFormat = 'json' | 'pretty';

interface LogFields {
  msg?: string;
  reqId?: string;
  operationId?: string;
  method?: string;
  url?: string;
  status?: number;
  ms?: number;
}

/**
 * One line per entry on a terminal: pino-pretty's default puts every field on a line of its own
 * (~7 lines a request). A request reads `GET /api/projects 200 3.1 ms (listProjects req <id>)`;
 * any other line keeps its request id and operationId at its end, and its other fields on the
 * same line as JSON.
 */
export function prettyMessage(log: LogFields): string {
  const tags = [log.operationId, log.reqId && `req ${log.reqId}`].filter(Boolean).join(' ');
  const suffix = tags ? ` (${tags})` : '';
  if (log.method && log.url && log.status !== undefined) return `${log.method} ${log.url} ${log.status} ${log.ms ?? '?'} ms${suffix}`;
  return `${log.msg ?? ''}${suffix}`;
}

/** pino-pretty's options for those lines (the fields the message holds are not repeated). */
export const PRETTY_LINES = {
  singleLine: true,
  messageFormat: (log: Record<string, unknown>) => prettyMessage(log as LogFields),
  ignore: 'pid,hostname,reqId,operationId,method,url,status,ms',
};

type Prettify = (line: string) => string;
type PrettyFactory = (options: Record<string, unknown>) => Prettify;

export function chooseLogFormat(configured: Config['logFormat'], stdoutIsTTY: boolean | undefined, prettyInstalled: boolean): LogFormat {
  return configured === 'auto' && stdoutIsTTY === true && prettyInstalled ? 'pretty' : 'json';
}

function loadPrettyFactory(): PrettyFactory | undefined {
  try {
    // Loaded only when wanted: a lazy require, so an install without dev dependencies still starts.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('pino-pretty') as { prettyFactory: PrettyFactory }).prettyFactory;
  } catch {
    return undefined;
  }
}

/** Fastify's logger option for this process: the level, and a pretty stream when chooseLogFormat says so. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>, stdout: NodeJS.WriteStream = process.stdout): object {
  const prettyFactory = config.logFormat === 'auto' && stdout.isTTY ? loadPrettyFactory() : undefined;
  if (chooseLogFormat(config.logFormat, stdout.isTTY, !!prettyFactory) === 'json' || !prettyFactory) return { level: config.logLevel };
  // Written synchronously, line by line, so nothing is lost when the process exits right after.
  const prettify = prettyFactory({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ...PRETTY_LINES });
  return { level: config.logLevel, stream: { write: (line: string) => stdout.write(prettify(line)) } };
}
