// Custom domains in the database: claims, verification (one verified claim per hostname, by the
// partial unique index), certificates, the per-domain issuing lease and the ACME challenges.
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { lockAccountPlan } from '../accounts';
import { projectIdsOf, subdomainsOf } from '../projects';
import { acmeAccounts, acmeChallenges, siteDomains, type SiteDomainRow } from './domains.tables';

export interface DomainRoute {
  hostname: string;
  subdomain: string;
  verified: boolean;
  hasCertificate: boolean;
}

export class DomainsRepository {
  constructor(private readonly db: Db) {}

  list(projectId: string): Promise<SiteDomainRow[]> {
    return this.db.select().from(siteDomains).where(eq(siteDomains.projectId, projectId)).orderBy(asc(siteDomains.createdAt), asc(siteDomains.hostname));
  }

  async find(projectId: string, hostname: string): Promise<SiteDomainRow | undefined> {
    const [row] = await this.db.select().from(siteDomains).where(and(eq(siteDomains.projectId, projectId), eq(siteDomains.hostname, hostname)));
    return row;
  }

  async byId(id: string): Promise<SiteDomainRow | undefined> {
    const [row] = await this.db.select().from(siteDomains).where(eq(siteDomains.id, id));
    return row;
  }

  async verifiedByName(hostname: string): Promise<SiteDomainRow | undefined> {
    const [row] = await this.db.select().from(siteDomains).where(and(eq(siteDomains.hostname, hostname), isNotNull(siteDomains.verifiedAt)));
    return row;
  }

  /**
   * Adds a claim if the owner's plan allows another domain: the account row is locked first, so
   * concurrent adds of one account take turns at the count. 'limit' with the plan when it does not.
   */
  async addWithinPlan(accountId: string, projectId: string, hostname: string, allowed: (plan: string) => number): Promise<{ row?: SiteDomainRow; refusedPlan?: string; exists?: boolean }> {
    return this.db.transaction(async (tx) => {
      const q = tx as unknown as Db;
      const plan = (await lockAccountPlan(q, accountId)) ?? 'hobby';
      // The account's projects are read under its lock: a project is made under the same lock (the projects limit).
      const projectIds = await projectIdsOf(q, accountId);
      const [{ n }] = projectIds.length
        ? await tx.select({ n: sql<number>`count(*)::int` }).from(siteDomains).where(inArray(siteDomains.projectId, projectIds))
        : [{ n: 0 }];
      if (Number(n) + 1 > allowed(plan)) return { refusedPlan: plan };
      const [row] = await tx.insert(siteDomains).values({ projectId, hostname }).onConflictDoNothing().returning();
      return row ? { row } : { exists: true };
    });
  }

  /** Marks the claim verified unless another project's claim already is (then false). */
  async markVerified(id: string, at: Date): Promise<boolean> {
    try {
      const rows = await this.db.update(siteDomains).set({ verifiedAt: at, nextAttemptAt: null, lastError: null }).where(eq(siteDomains.id, id)).returning({ id: siteDomains.id });
      return rows.length > 0;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return false;
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    await this.db.delete(siteDomains).where(eq(siteDomains.id, id));
  }

  /** Where a Host goes: the claim that is verified, else any claim (to answer "no site"); none: undefined. */
  async route(hostname: string): Promise<DomainRoute | undefined> {
    const claims = await this.db
      .select({ projectId: siteDomains.projectId, hostname: siteDomains.hostname, verifiedAt: siteDomains.verifiedAt, cert: siteDomains.certExpiresAt })
      .from(siteDomains)
      .where(eq(siteDomains.hostname, hostname))
      .limit(20);
    if (!claims.length) return undefined;
    // Two statements, once per name (domains.service.ts keeps the answer in the lookup cache).
    const subdomains = await subdomainsOf(this.db, [...new Set(claims.map((c) => c.projectId))]);
    const rows = claims.flatMap((c) => (subdomains.has(c.projectId) ? [{ ...c, subdomain: subdomains.get(c.projectId)! }] : []));
    if (!rows.length) return undefined;
    const v = rows.find((r) => r.verifiedAt);
    const r = v ?? rows[0];
    return { hostname: r.hostname, subdomain: r.subdomain, verified: !!v, hasCertificate: !!v?.cert };
  }

  /** The verified domain's certificate and sealed key, when it has one. */
  async certificate(hostname: string): Promise<{ certPem: string; keySealed: string; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .select({ certPem: siteDomains.certPem, keySealed: siteDomains.keySealed, expiresAt: siteDomains.certExpiresAt })
      .from(siteDomains)
      .where(and(eq(siteDomains.hostname, hostname), isNotNull(siteDomains.verifiedAt), isNotNull(siteDomains.certPem)));
    return row?.certPem && row.keySealed && row.expiresAt ? { certPem: row.certPem, keySealed: row.keySealed, expiresAt: row.expiresAt } : undefined;
  }

  /** Verified domains with no certificate, or one expiring before `renewBefore`, whose retry time has come. */
  async due(now: Date, renewBefore: Date, limit = 20): Promise<SiteDomainRow[]> {
    return this.db
      .select()
      .from(siteDomains)
      .where(
        and(
          isNotNull(siteDomains.verifiedAt),
          or(isNull(siteDomains.certExpiresAt), lt(siteDomains.certExpiresAt, renewBefore)),
          or(isNull(siteDomains.nextAttemptAt), lte(siteDomains.nextAttemptAt, now)),
          or(isNull(siteDomains.leaseUntil), lt(siteDomains.leaseUntil, now)),
        ),
      )
      .orderBy(asc(siteDomains.certExpiresAt))
      .limit(limit);
  }

  /** Takes the domain's issuing lease if nobody holds it: true for the one instance that got it. */
  async claim(id: string, now: Date, until: Date): Promise<boolean> {
    const rows = await this.db
      .update(siteDomains)
      .set({ leaseUntil: until })
      .where(and(eq(siteDomains.id, id), isNotNull(siteDomains.verifiedAt), or(isNull(siteDomains.leaseUntil), lt(siteDomains.leaseUntil, now))))
      .returning({ id: siteDomains.id });
    return rows.length > 0;
  }

  async storeCertificate(id: string, certPem: string, keySealed: string, expiresAt: Date): Promise<void> {
    await this.db.update(siteDomains).set({ certPem, keySealed, certExpiresAt: expiresAt, lastError: null, nextAttemptAt: null, leaseUntil: null }).where(eq(siteDomains.id, id));
  }

  async storeFailure(id: string, message: string, retryAt: Date): Promise<void> {
    await this.db.update(siteDomains).set({ lastError: message.slice(0, 500), nextAttemptAt: retryAt, leaseUntil: null }).where(eq(siteDomains.id, id));
  }

  async putChallenge(token: string, hostname: string, keyAuthorization: string): Promise<void> {
    await this.db.insert(acmeChallenges).values({ token, hostname, keyAuthorization }).onConflictDoUpdate({ target: acmeChallenges.token, set: { hostname, keyAuthorization } });
  }

  async challenge(token: string, hostname: string): Promise<string | undefined> {
    const [row] = await this.db.select({ k: acmeChallenges.keyAuthorization }).from(acmeChallenges).where(and(eq(acmeChallenges.token, token), eq(acmeChallenges.hostname, hostname)));
    return row?.k;
  }

  async dropChallenges(tokens: string[]): Promise<void> {
    if (tokens.length) await this.db.delete(acmeChallenges).where(inArray(acmeChallenges.token, tokens));
  }

  async accountKey(directoryUrl: string): Promise<string | undefined> {
    const [row] = await this.db.select({ k: acmeAccounts.keySealed }).from(acmeAccounts).where(eq(acmeAccounts.directoryUrl, directoryUrl));
    return row?.k;
  }

  /** Stores the key unless another instance stored one first; returns the one kept. */
  async putAccountKey(directoryUrl: string, keySealed: string): Promise<string> {
    await this.db.insert(acmeAccounts).values({ directoryUrl, keySealed }).onConflictDoNothing();
    return (await this.accountKey(directoryUrl)) ?? keySealed;
  }
}
