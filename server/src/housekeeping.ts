// Periodic clean-up of rows that only matter for a while (expired rate-limit windows, used or
// expired one-time tokens). Any instance may run it; the statements are idempotent.
import type { FastifyInstance } from 'fastify';
import type { Deps } from './platform/deps';

export const HOUSEKEEPING_SQL = [
  `DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`,
  `DELETE FROM account_tokens WHERE expires_at < now() - interval '1 day'`,
  `DELETE FROM end_user_tokens WHERE expires_at < now() - interval '1 day'`,
  `DELETE FROM end_user_refresh_tokens WHERE expires_at < now() - interval '1 day'`,
  `DELETE FROM platform_instances WHERE seen_at < now() - interval '1 day'`,
];

export async function runHousekeeping(deps: Pick<Deps, 'database'>, extra: string[] = []): Promise<void> {
  for (const sql of [...HOUSEKEEPING_SQL, ...extra]) await deps.database.query(sql);
}

export function scheduleHousekeeping(app: FastifyInstance, deps: Deps, everyMs = 10 * 60 * 1000): void {
  const timer = setInterval(() => {
    runHousekeeping(deps).catch((err) => deps.log.warn({ err }, 'housekeeping failed'));
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
