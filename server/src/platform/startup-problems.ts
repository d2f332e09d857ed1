// The start's failures an operator fixes, as one line each that names the setting or the folder
// to change, instead of Node's stack: a busy or forbidden port, an unreachable or refused
// database, a folder this user may not write. Anything else is left as it is (a bug: its stack).
import fs from 'node:fs';
import os from 'node:os';
import { StartupError } from './errors';
import { portHolder } from './port-holder';

type ErrnoLike = Error & { code?: string; path?: string; syscall?: string; hostname?: string; address?: string; port?: number };

/** A database URL with its password replaced by *** (also when the URL does not parse). */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return raw.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}

/** DATABASE_URL must be a postgres:// URL: checked before anything connects. */
export function checkDatabaseUrl(raw: string): void {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // below
  }
  if (!url || !/^postgres(ql)?:$/.test(url.protocol) || !url.hostname) {
    throw new StartupError(
      `DATABASE_URL is not a PostgreSQL URL like postgres://user:password@host:5432/database, got "${redactUrl(raw)}". ` +
        'Fix it, or unset DATABASE_URL to use the embedded database under DATA_DIR.',
    );
  }
}

/** What pg's refusals mean, by code. */
function databaseReason(err: ErrnoLike, url: URL | undefined): string | undefined {
  const where = url ? `${url.hostname}:${url.port || 5432}` : 'its host';
  switch (err.code) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${where} (connection refused; is PostgreSQL running there, on that port)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host "${err.hostname ?? url?.hostname}" is not known (DNS lookup failed)`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} does not answer (${err.code})`;
    case 'ECONNRESET':
      return `${where} closed the connection (is it PostgreSQL? does it want TLS: ?sslmode=require)`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${where} refused the user or password: ${err.message}`;
    case '3D000':
      return `${err.message} on ${where} (create it: createdb, or CREATE DATABASE)`;
    default:
      return undefined;
  }
}

/** A connection failure at start, as a StartupError naming DATABASE_URL; other errors: undefined. */
export function databaseProblem(raw: string, err: unknown): StartupError | undefined {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // the message says what it can
  }
  const reason = databaseReason(err as ErrnoLike, url);
  if (!reason) return undefined;
  return new StartupError(`cannot use the database at DATABASE_URL=${redactUrl(raw)}: ${reason}. Fix DATABASE_URL, or unset it to use the embedded database under DATA_DIR.`);
}

/** A listen failure, as a StartupError naming PORT (and HOST); other errors: undefined. */
export function listenProblem(err: unknown, port: number, host: string): StartupError | undefined {
  const e = err as ErrnoLike;
  if (e.code === 'EADDRINUSE') {
    const holder = portHolder(port);
    return new StartupError(`port ${port} is already in use${holder ? ` by ${holder}` : ''}: set PORT to a free port, or stop what holds it.`);
  }
  if (e.code === 'EACCES') return new StartupError(`port ${port} needs privileges this user lacks (ports below 1024 do): set PORT to 1024 or above.`);
  if (e.code === 'EADDRNOTAVAIL') return new StartupError(`HOST=${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0.`);
  return undefined;
}

/** A folder (or file) this user may not create or write, as a StartupError naming it and why. */
export function folderProblem(err: unknown): StartupError | undefined {
  const e = err as ErrnoLike;
  if (!e.path || !['EACCES', 'EPERM', 'EROFS'].includes(e.code ?? '')) return undefined;
  if (e.code === 'EROFS') return new StartupError(`cannot write ${e.path}: the file system is read-only. Point DATA_DIR at a writable folder.`);
  const me = os.userInfo().username;
  let owner = '';
  try {
    const uid = fs.statSync(e.path).uid;
    owner = uid === process.getuid?.() ? '' : `, owned by uid ${uid}${uid === 0 ? ' (root: a start as root made it?)' : ''}`;
  } catch {
    // it does not exist: its parent refused
  }
  return new StartupError(
    `cannot ${e.syscall ?? 'write'} ${e.path}: permission denied for ${me} (uid ${process.getuid?.() ?? '?'})${owner}. ` +
      'Give it to the user that runs Hostbase (chown -R), or point DATA_DIR at a folder of its own.',
  );
}
