import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUuid } from '../../lib/ids';
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

  constructor(private readonly db: Db) {
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

  /** Project and its keys in one transaction (or a savepoint of `db`'s); undefined when the subdomain is taken. */
  async create(values: { ownerId: string; name: string; description: string | null; subdomain: string; bucketId: string }, keys: NewKey[], db: Db = this.db): Promise<ProjectRow | undefined> {
    return db.transaction(async (tx) => {
      const [row] = await tx.insert(projects).values(values).onConflictDoNothing().returning();
      if (!row) return undefined;
      await tx.insert(projectKeys).values(keys.map((k) => ({ ...k, projectId: row.id })));
      return row;
    });
  }

  async delete(projectId: string): Promise<void> {
    await this.db.delete(projects).where(eq(projects.id, projectId));
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
    await this.db.transaction(async (tx) => {
      await tx
        .update(projectKeys)
        .set({ revokedAt: now })
        .where(and(eq(projectKeys.projectId, projectId), eq(projectKeys.kind, key.kind), isNull(projectKeys.revokedAt)));
      await tx.insert(projectKeys).values({ ...key, projectId });
    });
  }

  async projectByKeyHash(kind: ProjectKeyKind, keyHash: string): Promise<ProjectRow | undefined> {
    const [row] = await this.byKeyHash.execute({ kind, keyHash });
    return row?.project;
  }
}
