// The usage registry: what each counted limit counts, answered by the module that owns the rows.
// Plans sits below every module with a limit, so it cannot ask them; instead each one registers a
// counter for its own tables (implemented in its own repository) when its module is made, and the
// projects module registers which projects an account has. The plan guard, billing and the usage
// report ask here. A counter takes the caller's query handle: inside a guarded write it is the
// transaction that holds the account's row lock, so the count stays atomic with the write.
import type { Db } from '../../db/client';
import type { LimitName } from './plans';

/** A drizzle handle: the app's, or a transaction's (a PgTransaction is a PgDatabase). */
export type Q = Db;

/** Whose usage: every project of an account, or one project. */
export type UsageScope = { accountId: string } | { projectId: string };

/** The limits counted by a registered counter (storage has its own accounting, storage.repository). */
export type CountedLimit = Exclude<LimitName, 'storage'>;

/**
 * A module's count of what it owns over these projects (the scope's, resolved by the registry):
 * rows, or bytes; `since` bounds the monthly ones (the month's start).
 */
export type Counter = (q: Q, projectIds: string[], since: Date) => Promise<number>;

/** The ids of an account's projects (the projects module's answer). */
export type ProjectsOf = (q: Q, accountId: string) => Promise<string[]>;

export class UsageRegistry {
  private readonly counters = new Map<CountedLimit, Counter>();
  private projectsOf?: ProjectsOf;

  /** Called once per limit by the module that owns its rows. */
  register(limit: CountedLimit, counter: Counter): void {
    this.counters.set(limit, counter);
  }

  /** Called by the projects module: the scope of an account. */
  provideProjects(projectsOf: ProjectsOf): void {
    this.projectsOf = projectsOf;
  }

  /** The scope's project ids, read with `q` (inside a guarded write: under the account's lock). */
  async projectIds(q: Q, scope: UsageScope): Promise<string[]> {
    if ('projectId' in scope) return [scope.projectId];
    if (!this.projectsOf) throw new Error('usage registry: no module answers for the projects of an account');
    return this.projectsOf(q, scope.accountId);
  }

  /**
   * The scope's use of a limit (or of projects already resolved by projectIds). An account without
   * projects uses nothing (no counter is asked).
   */
  async count(limit: CountedLimit, q: Q, scope: UsageScope | { projectIds: string[] }, since: Date = new Date(0)): Promise<number> {
    const counter = this.counters.get(limit);
    if (!counter) throw new Error(`usage registry: no module counts ${limit}`);
    const ids = 'projectIds' in scope ? scope.projectIds : await this.projectIds(q, scope);
    return ids.length ? counter(q, ids, since) : 0;
  }
}

// One registry per app (per Deps, as the plan guard): modules made for one app register on it.
const registries = new WeakMap<object, UsageRegistry>();

/** The app's usage registry, made on first use. */
export function usageRegistry(deps: object): UsageRegistry {
  let registry = registries.get(deps);
  if (!registry) registries.set(deps, (registry = new UsageRegistry()));
  return registry;
}
