// Periodic clean-up of rows that only matter for a while (expired rate-limit windows, used or
// expired one-time tokens, instances long gone). Each sweep is kept by the door of the table it
// sweeps (platform/sweeps.ts); this file, the app, gathers them from the platform and the modules'
// faces. Any instance may run it; the statements are idempotent.
import type { FastifyInstance } from 'fastify';
import type { Deps } from './platform/deps';
import type { Sweep } from './platform/sweeps';
import { rateLimitSweep } from './platform/rate-limit';
import { instanceSweep } from './platform/lookup-cache';
import { accountTokenSweep } from './modules/accounts';
import { endUserTokenSweeps } from './modules/end-users';

export const SWEEPS: readonly Sweep[] = [rateLimitSweep, accountTokenSweep, ...endUserTokenSweeps, instanceSweep];

/** Runs every sweep, then `extra` (more statements, or sweeps of a test's own). */
export async function runHousekeeping(deps: Pick<Deps, 'database'>, extra: (string | Sweep)[] = []): Promise<void> {
  for (const sweep of SWEEPS) await sweep.run(deps.database);
  for (const more of extra) await (typeof more === 'string' ? deps.database.query(more) : more.run(deps.database));
}

export function scheduleHousekeeping(app: FastifyInstance, deps: Deps, everyMs = 10 * 60 * 1000): void {
  const timer = setInterval(() => {
    runHousekeeping(deps).catch((err) => deps.log.warn({ err }, 'housekeeping failed'));
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
