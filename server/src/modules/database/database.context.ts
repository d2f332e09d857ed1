// What the database module's services share: the platform's database, the project's schema and
// roles (made on first use), and sessions as those roles.
import type { Deps } from '../../platform/deps';
import type { ProjectRow } from '../projects';
import { Provisioning } from './provisioning';
import { inTenantSession, tenantStatement, type TenantSessionOptions, type TenantTx } from './tenant-session';
import type { ProjectDatabaseRow } from './database.tables';
import { TimeoutCooldown } from './timeout-cooldown';

export class DatabaseContext {
  readonly provisioning: Provisioning;
  /** Callers paused after a statement of theirs ran past the timeout. */
  readonly cooldown: TimeoutCooldown;
  /** A tenant statement's timeout (DB_STATEMENT_TIMEOUT_MS). */
  readonly statementTimeoutMs: number;

  constructor(readonly deps: Deps) {
    this.provisioning = new Provisioning(deps.database, deps.db);
    this.cooldown = new TimeoutCooldown(deps.rateLimiter, deps.config.database);
    this.statementTimeoutMs = deps.config.database.statementTimeoutMs;
  }

  /** The project's schema and roles, made on the first call. */
  names(project: Pick<ProjectRow, 'id'>): Promise<ProjectDatabaseRow> {
    return this.provisioning.ensure(project.id);
  }

  /** fn in a transaction as the project's role (see tenant-session.ts). */
  async session<T>(project: Pick<ProjectRow, 'id'>, options: TenantSessionOptions, fn: (tx: TenantTx, names: ProjectDatabaseRow) => Promise<T>): Promise<T> {
    const names = await this.names(project);
    return inTenantSession(this.deps.database, names, { timeoutMs: this.statementTimeoutMs, ...options }, (tx) => fn(tx, names));
  }

  /** One statement as the project's role, in one round trip (see tenant-session.ts tenantStatement). */
  async statement<T>(project: Pick<ProjectRow, 'id'>, options: Omit<TenantSessionOptions, 'readOnly'>, statement: { sql: string; params: unknown[] }): Promise<T[]> {
    return tenantStatement<T>(this.deps.database, await this.names(project), { timeoutMs: this.statementTimeoutMs, ...options }, statement);
  }
}
