// Table and column names a developer or an app sends: checked against one rule, then always
// quoted. The rule keeps names PostgreSQL stores exactly (at most 63 bytes: a longer name would be
// silently truncated, so two names could collide) and out of the platform's prefixes.
import { Errors } from '../../platform/errors';

const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
export const MAX_IDENTIFIER_BYTES = 63;

/** Why `name` can't be a table or column name, or undefined when it can. */
export function identifierProblem(name: string): string | undefined {
  if (!name) return 'must not be empty';
  if (Buffer.byteLength(name, 'utf8') > MAX_IDENTIFIER_BYTES) return `must be at most ${MAX_IDENTIFIER_BYTES} bytes (UTF-8)`;
  if (!NAME.test(name)) return 'must start with a letter or underscore and hold only letters, digits and underscores';
  if (/^(pg_|hb_)/i.test(name)) return 'must not start with "pg_" or "hb_" (reserved)';
  return undefined;
}

/** `name` checked (400 naming `field` otherwise). */
export function checkIdentifier(name: string, field: string): string {
  const problem = identifierProblem(name);
  if (problem) throw Errors.validation(`${field} ${problem}`);
  return name;
}

/** A quoted SQL identifier. Only for names that passed checkIdentifier or that the platform made. */
export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}

/** A quoted SQL string literal (standard_conforming_strings is on in every supported PostgreSQL). */
export function quoteLiteral(value: string): string {
  if (value.includes('\u0000')) throw Errors.validation('value must not contain NUL characters');
  return "'" + value.replace(/'/g, "''") + "'";
}
