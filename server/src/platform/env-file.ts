// A `.env` beside the platform (copied from .env.example) is read at start, before the config.
// Variables already in the environment win (process.loadEnvFile never overwrites them), and a
// missing file is the normal case. Node's parser is lenient: a stray line or an unclosed quote
// silently swallows the lines after it, so the file is checked first and a malformed one stops
// the start with the line to fix (never its contents: a line may hold a secret).
import fs from 'node:fs';

export class EnvFileError extends Error {}

const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=(.*)$/;
const QUOTES = ['"', "'", '`'];

/** The first problem in a .env file's text, or undefined when every line is NAME=value, blank or a comment. */
export function envFileProblem(text: string): string | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*(#.*)?$/.test(line)) continue;
    const assignment = ASSIGNMENT.exec(line);
    if (!assignment) return `line ${i + 1} is not NAME=value (or a # comment)`;
    const value = assignment[1].trim();
    const quote = QUOTES.find((q) => value.startsWith(q));
    // A quoted value may span lines until its closing quote.
    if (!quote || value.indexOf(quote, 1) > 0) continue;
    const start = i;
    do i++;
    while (i < lines.length && !lines[i].includes(quote));
    if (i >= lines.length) return `line ${start + 1} opens a ${quote} quoted value that is never closed`;
  }
  return undefined;
}

/** Loads `file` into process.env; false when there is no such file. Throws EnvFileError when it is malformed. */
export function loadEnvFile(file: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new EnvFileError(`${file} cannot be read: ${(err as Error).message}`);
  }
  const problem = envFileProblem(text);
  if (problem) throw new EnvFileError(`${file}: ${problem}. Fix it (see .env.example) or remove it.`);
  process.loadEnvFile(file);
  return true;
}
