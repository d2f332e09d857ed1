// Drizzle queries for mail domains and mailboxes. Uniqueness (one domain per project, a domain
// in one project only, one mailbox per address) is the database's: inserts that would break it
// insert nothing and say so, so concurrent requests can't both win.
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { insertJsonRows, selectJsonRows, type JsonRow, type Querier } from '../../db/json-rows';
import { mailAccounts, smtpDomains, type MailAccountRow, type NewMailAccount, type NewSmtpDomain, type SmtpDomainRow } from './mail.tables';
import { isUniqueViolation } from '../../platform/pg-errors';

export class MailRepository {
  constructor(private readonly db: Db) {}

  async domainOfProject(projectId: string): Promise<SmtpDomainRow | undefined> {
    const [row] = await this.db.select().from(smtpDomains).where(eq(smtpDomains.projectId, projectId)).limit(1);
    return row;
  }

  /** The project that verified this name, if one did (unverified claims don't own a name). */
  async verifiedDomainByName(domain: string): Promise<SmtpDomainRow | undefined> {
    const [row] = await this.db.select().from(smtpDomains).where(and(eq(smtpDomains.domain, domain), eq(smtpDomains.verified, true))).limit(1);
    return row;
  }

  /** Every verified domain (the DKIM keys the mail host signs with). */
  verifiedDomains(): Promise<SmtpDomainRow[]> {
    return this.db.select().from(smtpDomains).where(eq(smtpDomains.verified, true)).orderBy(asc(smtpDomains.domain));
  }

  /** Inserts the domain unless the project has one or the name is taken (then undefined). */
  async insertDomain(row: NewSmtpDomain): Promise<SmtpDomainRow | undefined> {
    const [inserted] = await this.db.insert(smtpDomains).values(row).onConflictDoNothing().returning();
    return inserted;
  }

  /** Records a verification's outcome: each record found or not. */
  async recordCheck(id: string, check: Record<string, boolean>, at: Date): Promise<void> {
    await this.db.update(smtpDomains).set({ dnsCheck: check, dnsCheckedAt: at }).where(eq(smtpDomains.id, id));
  }

  /**
   * Marks the domain verified (never unverified later). False when another project verified the
   * same name first: the partial unique index decides, so two verifications at once can't both win.
   */
  async markVerified(id: string, at: Date): Promise<boolean> {
    try {
      const rows = await this.db.update(smtpDomains).set({ verified: true, verifiedAt: at }).where(eq(smtpDomains.id, id)).returning({ id: smtpDomains.id });
      return rows.length > 0;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** Deletes the domain; its mailboxes go with it (ON DELETE CASCADE). */
  async deleteDomain(id: string): Promise<boolean> {
    const rows = await this.db.delete(smtpDomains).where(eq(smtpDomains.id, id)).returning({ id: smtpDomains.id });
    return rows.length > 0;
  }

  accounts(domainId: string): Promise<MailAccountRow[]> {
    return this.db.select().from(mailAccounts).where(eq(mailAccounts.domainId, domainId)).orderBy(asc(mailAccounts.createdAt), asc(mailAccounts.email));
  }

  async account(domainId: string, email: string): Promise<MailAccountRow | undefined> {
    const [row] = await this.db.select().from(mailAccounts).where(and(eq(mailAccounts.domainId, domainId), eq(mailAccounts.email, email))).limit(1);
    return row;
  }

  /** Inserts the mailbox unless the address exists (then undefined). */
  async insertAccount(row: NewMailAccount, db: Db = this.db): Promise<MailAccountRow | undefined> {
    const [inserted] = await db.insert(mailAccounts).values(row).onConflictDoNothing({ target: mailAccounts.email }).returning();
    return inserted;
  }

  async deleteAccount(domainId: string, email: string): Promise<boolean> {
    const rows = await this.db.delete(mailAccounts).where(and(eq(mailAccounts.domainId, domainId), eq(mailAccounts.email, email))).returning({ id: mailAccounts.id });
    return rows.length > 0;
  }

  async setPassword(domainId: string, email: string, passwordHash: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(mailAccounts)
      .set({ passwordHash, updatedAt: at })
      .where(and(eq(mailAccounts.domainId, domainId), eq(mailAccounts.email, email)))
      .returning({ id: mailAccounts.id });
    return rows.length > 0;
  }

  /** Mailboxes across these projects' domains (the usage registry's count of the plan's limit). */
  async mailboxCount(q: Db, projectIds: string[]): Promise<number> {
    const [row] = await q
      .select({ n: count() })
      .from(mailAccounts)
      .innerJoin(smtpDomains, eq(smtpDomains.id, mailAccounts.domainId))
      .where(inArray(smtpDomains.projectId, projectIds));
    return Number(row?.n ?? 0);
  }
}

/** A project's mail domain and mailboxes as an archive carries them (mail.lifecycle.ts). */
export const smtpArchiveRows = {
  async domain(q: Querier, projectId: string, columns: readonly string[]): Promise<JsonRow | undefined> {
    return (await selectJsonRows(q, smtpDomains, columns, eq(smtpDomains.projectId, projectId)))[0];
  },
  mailboxes: (q: Querier, domainId: string, columns: readonly string[]) =>
    selectJsonRows(q, mailAccounts, columns, eq(mailAccounts.domainId, domainId), sql`${mailAccounts.email}`),
  async verifiedByAnother(q: Querier, domain: string): Promise<boolean> {
    return (await selectJsonRows(q, smtpDomains, ['id'], and(eq(smtpDomains.domain, domain), eq(smtpDomains.verified, true))!)).length > 0;
  },
  async takenAddresses(q: Querier, emails: string[]): Promise<string[]> {
    if (!emails.length) return [];
    return (await selectJsonRows(q, mailAccounts, ['email'], inArray(mailAccounts.email, emails))).map((r) => String(r.email));
  },
  insertDomain: (q: Querier, columns: readonly string[], row: JsonRow) => insertJsonRows(q, smtpDomains, columns, [row]),
  insertMailboxes: (q: Querier, columns: readonly string[], rows: JsonRow[]) => insertJsonRows(q, mailAccounts, columns, rows),
};
