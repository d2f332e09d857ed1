import { and, asc, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertJsonRows, selectJsonRows, type JsonRow, type Querier } from '../../db/json-rows';
import type { LookupCache } from '../../platform/lookup-cache';
import { isUuid } from '../../platform/ids';
import { activityProject, transactionWithActivity } from '../activity';
import { projects, projectKeys, type ProjectRow, type ProjectKeyKind } from './projects.tables';

export interface NewKey {
  kind: ProjectKeyKind;
  keyHash: string;
  keyEnc: string;
}

export class ProjectsRepository {
  /**
   * Every app call looks its key up: built once (building a drizzle query costs more than the
   * lookup itself) and prepared once per connection.
   */
  private readonly byKeyHash;

  constructor(
    private readonly db: Db,
    /** Rows kept in memory by platform/lookup-cache.ts: after a write to one, wait until this instance heard of it. */
    private readonly lookups?: Pick<LookupCache, 'barrier'>,
  ) {
    this.byKeyHash = db
      .select({ project: projects })
      .from(projectKeys)
      .innerJoin(projects, eq(projects.id, projectKeys.projectId))
      .where(and(eq(projectKeys.kind, sql.placeholder('kind')), eq(projectKeys.keyHash, sql.placeholder('keyHash')), isNull(projectKeys.revokedAt)))
      .limit(1)
      .prepare('hostbase_project_by_key_hash');
  }

  listByOwner(ownerId: string): Promise<ProjectRow[]> {
    return this.db.select().from(projects).where(eq(projects.ownerId, ownerId)).orderBy(desc(projects.createdAt));
  }

  async findOwned(ownerId: string, projectId: string): Promise<ProjectRow | undefined> {
    if (!isUuid(projectId)) return undefined;
    const [row] = await this.db.select().from(projects).where(and(eq(projects.id, projectId), eq(projects.ownerId, ownerId))).limit(1);
    return row;
  }

  async findById(projectId: string): Promise<ProjectRow | undefined> {
    if (!isUuid(projectId)) return undefined;
    const [row] = await this.db.select().from(projects).where(eq(projects.id, projectId)).limit(1);
    return row;
  }

  async findBySubdomain(subdomain: string): Promise<ProjectRow | undefined> {
    const [row] = await this.db.select().from(projects).where(eq(projects.subdomain, subdomain)).limit(1);
    return row;
  }

  /**
   * Project, its keys and the activity entry in one transaction (or a savepoint of `db`'s: the plan
   * limit's); undefined when the subdomain is taken.
   */
  async create(values: { ownerId: string; name: string; description: string | null; subdomain: string; bucketId: string }, keys: NewKey[], db: Db = this.db): Promise<ProjectRow | undefined> {
    return transactionWithActivity(
      db,
      ['createProject', 'createProjectAlias'],
      async (tx) => {
        const [row] = await tx.insert(projects).values(values).onConflictDoNothing().returning();
        if (!row) return undefined;
        await tx.insert(projectKeys).values(keys.map((k) => ({ ...k, projectId: row.id })));
        return row;
      },
      (row) => {
        if (row) activityProject(row.id);
        return row !== undefined;
      },
    );
  }

  async delete(projectId: string): Promise<void> {
    await transactionWithActivity(this.db, ['deleteProject'], (tx) => tx.delete(projects).where(eq(projects.id, projectId)));
    await this.lookups?.barrier();
  }

  async activeKey(projectId: string, kind: ProjectKeyKind): Promise<{ keyEnc: string } | undefined> {
    const [row] = await this.db
      .select({ keyEnc: projectKeys.keyEnc })
      .from(projectKeys)
      .where(and(eq(projectKeys.projectId, projectId), eq(projectKeys.kind, kind), isNull(projectKeys.revokedAt)))
      .limit(1);
    return row;
  }

  /** Revokes the active key of a kind and inserts its replacement atomically. */
  async rotateKey(projectId: string, key: NewKey, now: Date): Promise<void> {
    await transactionWithActivity(this.db, ['rotateProjectKey'], async (tx) => {
      await tx
        .update(projectKeys)
        .set({ revokedAt: now })
        .where(and(eq(projectKeys.projectId, projectId), eq(projectKeys.kind, key.kind), isNull(projectKeys.revokedAt)));
      await tx.insert(projectKeys).values({ ...key, projectId });
    });
    await this.lookups?.barrier();
  }

  async projectByKeyHash(kind: ProjectKeyKind, keyHash: string): Promise<ProjectRow | undefined> {
    const [row] = await this.byKeyHash.execute({ kind, keyHash });
    return row?.project;
  }
}

/**
 * A project's rows as an archive carries them (projects.lifecycle.ts): raw statements on the
 * export's snapshot or the import's transaction, the columns the section names.
 */
export const projectArchiveRows = {
  async project(q: Querier, projectId: string, columns: readonly string[]): Promise<JsonRow | undefined> {
    return (await selectJsonRows(q, projects, columns, eq(projects.id, projectId)))[0];
  },

  activeKeys(q: Querier, projectId: string, columns: readonly string[]): Promise<JsonRow[]> {
    return selectJsonRows(q, projectKeys, columns, and(eq(projectKeys.projectId, projectId), isNull(projectKeys.revokedAt))!, asc(projectKeys.createdAt));
  },

  /** Which of the project's id, subdomain and bucket id a project here has already. */
  async clashes(q: Querier, p: { id: string; subdomain: string; bucketId: string }): Promise<{ id: boolean; subdomain: boolean; bucketId: boolean }> {
    const found = await selectJsonRows(q, projects, ['id', 'subdomain', 'bucket_id'], or(eq(projects.id, p.id), eq(projects.subdomain, p.subdomain), eq(projects.bucketId, p.bucketId))!);
    return { id: found.some((r) => r.id === p.id), subdomain: found.some((r) => r.subdomain === p.subdomain), bucketId: found.some((r) => r.bucket_id === p.bucketId) };
  },

  insertProject: (q: Querier, columns: readonly string[], row: JsonRow) => insertJsonRows(q, projects, columns, [row]),
  insertKeys: (q: Querier, columns: readonly string[], rows: JsonRow[]) => insertJsonRows(q, projectKeys, columns, rows),
};
