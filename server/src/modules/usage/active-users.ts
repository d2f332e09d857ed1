// Monthly active users: the end-user auth module tells this whenever it issues a session (sign-up,
// sign-in, refresh). One row per project, user and UTC day: one small write per sign-in, not per
// request. A failed write is logged and never fails the sign-in.
import type { Deps } from '../../platform/deps';
import { UsageRepository } from './usage.repository';
import { dayOf } from './ranges';

export type SignInRecorder = (projectId: string, userId: string) => Promise<void>;

export function signInRecorder(deps: Pick<Deps, 'database' | 'clock' | 'log'>): SignInRecorder {
  const repo = new UsageRepository(deps.database);
  return async (projectId, userId) => {
    try {
      await repo.addSignIn(projectId, userId, dayOf(deps.clock.now()));
    } catch (err) {
      deps.log.warn({ err, projectId }, 'could not record an end-user sign-in for the usage figures');
    }
  };
}
