#!/usr/bin/env node
// `hostbase`: the developer's command line. Reads the command line, runs the command (commands/)
// and turns what went wrong into a message on standard error (JSON on standard output with --json)
// and an exit code (errors.ts).
import { parseArgs } from 'node:util';
import { login, logout } from './commands/auth.js';
import { deploy } from './commands/deploy.js';
import { env } from './commands/env.js';
import { logs } from './commands/logs.js';
import { init, link, projects } from './commands/projects.js';
import { CliError, EXIT } from './errors.js';
import { COMMANDS, help } from './help.js';
import { output } from './output.js';

const OPTIONS = {
  url: { type: 'string' },
  email: { type: 'string' },
  token: { type: 'string' },
  project: { type: 'string', short: 'p' },
  type: { type: 'string' },
  deployment: { type: 'string', short: 'd' },
  follow: { type: 'boolean', short: 'f' },
  build: { type: 'boolean' },
  runtime: { type: 'boolean' },
  json: { type: 'boolean' },
  secret: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const { values: v, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  const [command, ...rest] = positionals;
  if (command === 'help' || v.help || !command) {
    const about = command === 'help' ? rest[0] : command;
    if (about && !COMMANDS[about]) throw new CliError(`Unknown command "${about}". Run \`hostbase --help\`.`, EXIT.usage);
    console.log(help(about));
    return command || v.help ? EXIT.ok : EXIT.usage;
  }
  const out = output(Boolean(v.json));
  switch (command) {
    case 'login':
      await login(v, out);
      break;
    case 'logout':
      logout(out);
      break;
    case 'projects':
      await projects(v, out);
      break;
    case 'init':
      await init(rest[0], v, out);
      break;
    case 'link':
      await link(v, out);
      break;
    case 'deploy':
      await deploy(rest[0], v, out);
      break;
    case 'logs':
      await logs(v, out);
      break;
    case 'env':
      await env(rest[0], rest.slice(1), v, out);
      break;
    default:
      throw new CliError(`Unknown command "${command}". Run \`hostbase --help\`.`, EXIT.usage);
  }
  return EXIT.ok;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    const usage = (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const code = err instanceof CliError ? err.exitCode : usage ? EXIT.usage : EXIT.failure;
    const message = err instanceof CliError || usage ? (err as Error).message : String((err as Error)?.stack ?? err);
    console.error(message);
    // Scripts asked for JSON get the failure as JSON too.
    if (process.argv.includes('--json')) console.log(JSON.stringify({ error: { message: (err as Error).message, exit_code: code } }, null, 2));
    process.exitCode = code;
  },
);
