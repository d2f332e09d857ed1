// Questions on the terminal (a password without echo), or answers read line by line from standard
// input when it is not a terminal (scripts, tests).
import readline from 'node:readline';
import { CliError } from './errors.js';

export function prompter() {
  const tty = Boolean(process.stdin.isTTY);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: tty });
  const lines: string[] = [];
  const waiting: ((l: string | undefined) => void)[] = [];
  let closed = false;
  let muted = false;
  rl.on('line', (l) => (waiting.length ? waiting.shift()!(l) : lines.push(l)));
  rl.on('close', () => {
    closed = true;
    while (waiting.length) waiting.shift()!(undefined);
  });
  const out = rl as unknown as { _writeToOutput: (s: string) => void };
  const write = out._writeToOutput.bind(rl);
  out._writeToOutput = (s) => {
    if (!muted) write(s);
  };
  return {
    async ask(question: string, hidden = false): Promise<string> {
      process.stderr.write(question);
      muted = hidden && tty;
      const line = lines.length ? lines.shift() : closed ? undefined : await new Promise<string | undefined>((r) => waiting.push(r));
      if (muted) process.stderr.write('\n');
      muted = false;
      if (line === undefined) throw new CliError(`\nNo answer to "${question.trim()}" on standard input.`);
      if (!tty) process.stderr.write('\n');
      return line.trim();
    },
    close: () => rl.close(),
  };
}
