// `hostbase env list | set NAME=VALUE… [--secret] | unset NAME…`: the site's environment variables,
// through the hosting endpoints the console uses; secrets are sealed and shown masked.
import { call, pickProject, session } from '../api.js';
import { CliError, EXIT } from '../errors.js';
import type { Output } from '../output.js';

interface SiteEnv {
  variables: { name: string; secret: boolean; value: string | null; updated_at: string }[];
  message?: string;
  restarted?: boolean;
}

export const ENV_USAGE = 'Usage: hostbase env list | set NAME=VALUE… [--secret] | unset NAME…  [--project P]';

export async function env(sub: string | undefined, args: string[], o: { url?: string; project?: string; secret?: boolean }, out: Output): Promise<void> {
  if (!sub || !['list', 'set', 'unset'].includes(sub)) throw new CliError(ENV_USAGE, EXIT.usage);
  if (sub !== 'list' && !args.length) throw new CliError(ENV_USAGE, EXIT.usage);
  const variables = sub === 'set' ? args.map((a) => parse(a, o.secret)) : [];
  const c = session(o.url);
  const project = await pickProject(c, o.project);
  const base = `/project/${project.id}/hosting/env`;
  let answer: SiteEnv;
  if (sub === 'list') answer = await call<SiteEnv>(c.url, base, { token: c.token, json: {} });
  else if (sub === 'unset') answer = await call<SiteEnv>(c.url, `${base}/unset`, { token: c.token, json: { names: args } });
  else answer = await call<SiteEnv>(c.url, `${base}/set`, { token: c.token, json: { variables } });
  out.result(answer, () => {
    if (answer.message) out.info(answer.message);
    if (!answer.variables.length) return out.info('No variables.');
    for (const v of answer.variables) out.info(`${v.name}=${v.secret ? '•••••• (secret)' : v.value}`);
  });
}

function parse(arg: string, secret?: boolean) {
  const at = arg.indexOf('=');
  if (at <= 0) throw new CliError(`"${arg}" is not NAME=VALUE.`, EXIT.usage);
  return { name: arg.slice(0, at), value: arg.slice(at + 1), ...(secret ? { secret: true } : {}) };
}
