// The help texts: `hostbase --help` (every command) and `hostbase <command> --help` (one).

export const COMMANDS: Record<string, { usage: string; summary: string; text: string }> = {
  login: {
    summary: 'sign in (password, or --token)',
    usage: 'hostbase login [--url URL] [--email EMAIL] [--token TOKEN]',
    text: `Sign in as the developer (the console's account). Asks for the e-mail and password, and a code
when two-factor is on; or keeps a token given with --token (a sign-in made elsewhere, e.g. for CI)
after checking it with the platform. HOSTBASE_PASSWORD and HOSTBASE_MFA_CODE answer the prompts
without a terminal.`,
  },
  logout: { summary: 'forget the stored token', usage: 'hostbase logout', text: 'Forget the stored token.' },
  projects: { summary: 'your projects', usage: 'hostbase projects [--json]', text: 'Your projects.' },
  init: {
    summary: 'write hostbase.json here (the folder to deploy)',
    usage: 'hostbase init [folder] [--type T] [--project P]',
    text: `Write hostbase.json in the current folder: the platform, the folder \`hostbase deploy\` sends
(default: this one) and, with --type, its type; with --project, the project too. Commands run in
this folder or below it then read it.`,
  },
  link: {
    summary: 'link this folder to a project (hostbase.json)',
    usage: 'hostbase link [--project P]',
    text: `Link this folder to one of your projects (asks which when you have several and --project
is not given): written to hostbase.json, created when missing.`,
  },
  deploy: {
    summary: 'make the folder the live site; prints its address',
    usage: 'hostbase deploy [folder] [--project P] [--type T]',
    text: `Make the folder (default: hostbase.json's, else the current one) the project's live site, and
print its address as the platform gives it. A folder with nothing to build sends only the files
the platform does not have yet (instant redeploy); source code (package.json, composer.json,
requirements.txt) is zipped, built on the server and its build log printed as it runs
(node_modules/ and Python virtualenvs are left out: the build installs them).`,
  },
  logs: {
    summary: 'the deploy and runtime logs of the site',
    usage: 'hostbase logs [--project P] [--deployment D] [--build | --runtime] [--follow]',
    text: `The deploy (build) and runtime logs of the live site (or of deployment D); --follow keeps
printing new lines and moves on to the next deployment as it starts.`,
  },
  env: {
    summary: "the site's environment variables",
    usage: 'hostbase env list | set NAME=VALUE… [--secret] | unset NAME…  [--project P]',
    text: `The site's environment variables: list them (secrets masked), set some (--secret: sealed,
never shown again) or remove some. Setting or removing restarts the site.`,
  },
};

const OPTIONS = `Options:
  --url URL        the platform (default: hostbase.json's, else the one you signed in to, else
                   $HOSTBASE_URL, else http://localhost:3000)
  -p, --project P  a project's id or subdomain (default: the linked one, else your only one)
  --type T         Static, Node, PHP, Flask, React, Vite, Angular, Next.js, Vue, Astro
                   (default: guessed from the folder)
  -f, --follow     keep printing new log lines
  --json           print the answer as JSON on standard output (progress goes to standard error)
  -h, --help       this help; \`hostbase <command> --help\` for one command's

Exit codes: 0 done, 1 refused or failed (also: not signed in), 2 wrong command line,
3 the platform could not be reached, 130 interrupted.

The token is stored in ${'$'}HOSTBASE_CONFIG_DIR, else ${'$'}XDG_CONFIG_HOME/hostbase, else ~/.config/hostbase
(mode 0600). HOSTBASE_TOKEN, when set, is used instead (scripts and CI).`;

export function help(command?: string): string {
  const one = command ? COMMANDS[command] : undefined;
  if (one) return `Usage: ${one.usage}\n\n${one.text}\n\n${OPTIONS}`;
  const list = Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `hostbase: deploy and follow your Hostbase sites\n\nUsage:\n${list.join('\n')}\n\n${OPTIONS}`;
}
