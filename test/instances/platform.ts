// For the several-instances and shutdown tests: real platform processes (test/helpers/platform-process.ts),
// plain HTTP requests that also answer headers, and the pids of a hosted site's processes (its control group).
import fs from 'node:fs';
import path from 'node:path';
import { postJson, request } from '../helpers/http-request';

export { freePort, startPlatform, stopPlatform, type Platform } from '../helpers/platform-process';
export type { Answer } from '../helpers/http-request';

/** A request on a connection of its own (the balancer picks per request anyway). */
export const send = request;
export const json = postJson;

export async function until(check: () => boolean | Promise<boolean>, tries = 100, everyMs = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const CGROUP_ROOT = fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup/hostbase' : '/sys/fs/cgroup/pids/hostbase';

/**
 * Every control group (and its pids) of a deployment's site on this machine, whichever platform
 * process started it: a group is named `{platform pid}-{n}-{deploymentId}` (runtime.process.ts).
 */
export function siteGroups(deploymentId: string): { group: string; serverPid: number; pids: number[] }[] {
  const names = fs.existsSync(CGROUP_ROOT) ? fs.readdirSync(CGROUP_ROOT).filter((n) => n.endsWith(deploymentId)) : [];
  return names.map((group) => ({
    group,
    serverPid: Number(group.split('-')[0]),
    pids: fs.readFileSync(path.join(CGROUP_ROOT, group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number),
  }));
}
