// `hostbase logs`: the deploy (build) and runtime logs of the live site, or of one deployment;
// --follow keeps printing new lines, and moves to the next deployment as it starts.
import { call, pickProject, session } from '../api.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';

interface Deployment {
  id: string;
  status: string;
  live: boolean;
  created_at: string;
}

export interface LogsOptions {
  url?: string;
  project?: string;
  deployment?: string;
  follow?: boolean;
  build?: boolean;
  runtime?: boolean;
}

/** What `next` adds to the `prev` we printed; the runtime log keeps only its tail, so its head may have gone. */
export function newText(prev: string, next: string): string {
  if (next.startsWith(prev)) return next.slice(prev.length);
  const anchor = prev.slice(-256);
  const at = anchor ? next.lastIndexOf(anchor) : -1;
  return at >= 0 ? next.slice(at + anchor.length) : next;
}

const line = (text: string) => (text.endsWith('\n') ? text : text + '\n');

export async function logs(o: LogsOptions, out: Output): Promise<void> {
  const c = session(o.url);
  const project = await pickProject(c, o.project);
  const which = async (): Promise<Deployment | undefined> => {
    const h = await call<{ deployments: Deployment[]; live_deployment_id: string | null }>(c.url, `/project/${project.id}/deployments`, { token: c.token });
    if (o.deployment) {
      const d = h.deployments.find((x) => x.id === o.deployment);
      if (!d) throw new CliError(`No deployment ${o.deployment} in ${project.subdomain}.`);
      return d;
    }
    // The newest while it is building (its deploy log is what moves), else the live one, else the newest.
    const newest = h.deployments[0];
    return newest?.status === 'building' ? newest : (h.deployments.find((d) => d.id === h.live_deployment_id) ?? newest);
  };
  const showBuild = !o.runtime;
  const showRuntime = !o.build;
  let current = await which();
  if (!current) throw new CliError(`${project.subdomain} has no deployment yet: run \`hostbase deploy <folder>\`.`);
  let shown = { build: '', runtime: '' };
  let stop = false;
  const quit = () => (stop = true);
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  const interval = Number(process.env.HOSTBASE_POLL_MS) || 2000;
  // --json: the whole logs once; followed, one object a line per new piece ({deployment, log, text}).
  const emit = (log: 'build' | 'runtime', text: string) => {
    if (!text) return;
    if (out.json && o.follow) console.log(JSON.stringify({ deployment: current!.id, log, text }));
    else if (!out.json) process.stdout.write(line(text));
  };
  for (let first = true; ; first = false) {
    const l = await call<{ build_log: string; runtime_log: string }>(c.url, `/project/${project.id}/deployments/${current.id}/logs`, { token: c.token });
    if (out.json && !o.follow) {
      return out.result({ deployment: current, ...(showBuild ? { build_log: l.build_log } : {}), ...(showRuntime ? { runtime_log: l.runtime_log } : {}) });
    }
    if (first) out.info(`== deployment ${current.id} (${current.status}) of ${project.primary_domain}`);
    if (showBuild) {
      if (first && showRuntime) out.info('== deploy log');
      emit('build', newText(shown.build, l.build_log));
    }
    if (showRuntime) {
      if (first && showBuild) out.info('== runtime log');
      emit('runtime', newText(shown.runtime, l.runtime_log));
    }
    shown = { build: l.build_log, runtime: l.runtime_log };
    if (!o.follow) return;
    await new Promise((r) => setTimeout(r, interval));
    if (stop) return;
    if (!o.deployment) {
      const next = await which();
      if (next && next.id !== current.id) {
        current = next;
        shown = { build: '', runtime: '' };
        out.info(`== deployment ${current.id} (${current.status})`);
      }
    }
  }
}
