// What both sign-in services (developer accounts, a project's end users) are built from besides
// their own repository and token issuer.
import type { Deps } from '../../platform/deps';

export function identityServiceDeps(deps: Deps) {
  return {
    passwords: deps.passwords,
    mailer: deps.mailer,
    rateLimiter: deps.rateLimiter,
    clock: deps.clock,
    publicUrl: deps.config.publicUrl,
    log: deps.log,
    lookups: deps.lookups,
    events: deps.events,
  };
}
