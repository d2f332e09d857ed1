// Hosted mail, the API half: a project's one mail domain (its DKIM key made here, the private
// half sealed), the DNS records to publish and their verification by real lookups, and the
// mailboxes on a verified domain (passwords as Argon2id hashes Dovecot verifies). The mail
// servers read the same rows through the views of migrations/0009_mail.sql.
import { Errors } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import type { SecretBox } from '../../platform/crypto';
import type { ProjectRow } from '../projects';
import { generateDkimKey, dkimSelector } from './dkim';
import type { DkimKeyEntry } from './dkim-export';
import { checkRecords, mailRecords, notVerifiedMessage, type DnsLookup, type RecordCheck } from './dns-records';
import { mailboxPasswordProblem, mailboxUsername, MAIL_MESSAGES, normalizeDomain } from './mail-rules';
import { hashMailboxPassword } from './mailbox-password';
import type { MailRepository } from './mail.repository';
import type { MailAccountRow, SmtpDomainRow } from './mail.tables';
import type { PlanLimitGuard } from '../plans';
import type { AccountEvents } from '../../platform/account-events';

/** New mailboxes: 5 GiB (SPEC section 9). */
export const DEFAULT_QUOTA_BYTES = 5 * 1024 ** 3;

export interface MailServiceDeps {
  repo: MailRepository;
  secrets: SecretBox;
  clock: Clock;
  dns: DnsLookup;
  /** Where MX records point (MAIL_HOST). */
  mailHost: string;
  platformDomain: string;
  webmailUrl?: string;
  /** Whether the mail servers serve this platform (config.mailServersAttached). */
  mailServersAttached: boolean;
  /** Called after the set of verified domains changed (the DKIM key export, when configured). */
  onVerifiedDomainsChanged?: () => Promise<void>;
  /** The plan's mailbox limit, across the account's projects (plans/plan-limits.ts). */
  limits: PlanLimitGuard;
  /** A verified domain whose records stopped checking out is told here (the project's errors, the owner). */
  events?: AccountEvents;
}

export class MailService {
  constructor(private readonly d: MailServiceDeps) {}

  async addDomain(project: ProjectRow, input: string): Promise<SmtpDomainRow> {
    const domain = this.domainName(input);
    if (this.isPlatformDomain(domain)) throw Errors.conflict('This domain is reserved by the platform');
    await this.refuseTaken(project, domain);
    const key = await generateDkimKey();
    const row = await this.d.repo.insertDomain({
      projectId: project.id,
      domain,
      dkimSelector: dkimSelector(this.d.clock.now()),
      dkimPrivateKey: this.d.secrets.seal(key.privateKeyPem),
      dkimPublicKey: key.publicKey,
      createdAt: this.d.clock.now(),
    });
    // The unique indexes decided: a concurrent add for this project or this name got there first.
    if (!row) {
      await this.refuseTaken(project, domain);
      throw Errors.conflict('This domain is already used by another project');
    }
    return row;
  }

  async details(project: ProjectRow) {
    const row = await this.d.repo.domainOfProject(project.id);
    const webmail = { ...(this.d.webmailUrl ? { webmail_url: this.d.webmailUrl } : {}), mail_servers_attached: this.d.mailServersAttached };
    if (!row) return { domain: null, date: null, verified: false, dnsRecords: [], ...webmail };
    return {
      domain: row.domain,
      date: row.createdAt.toISOString(),
      verified: row.verified,
      // Each record's state as the last verification found it (none before the first).
      dnsRecords: mailRecords(this.keys(row)).map(({ key, type, host, value, priority, ttl, purpose }) => ({
        type, host, value, ...(priority === undefined ? {} : { priority }), ttl, purpose,
        ...(row.dnsCheck && key in row.dnsCheck ? { verified: row.dnsCheck[key] === true } : {}),
      })),
      ...webmail,
    };
  }

  /** "verified" when every record is found; else the message naming each missing or wrong one. */
  async verify(project: ProjectRow, input: string): Promise<{ verified: boolean; message: string; checks: RecordCheck[] }> {
    const row = await this.projectDomain(project, input);
    const checks = await checkRecords(this.d.dns, this.keys(row));
    const allFound = checks.every((c) => c.found);
    await this.d.repo.recordCheck(row.id, Object.fromEntries(checks.map((c) => [c.key, c.found])), this.d.clock.now());
    if (allFound && !row.verified) {
      // Only the owner can publish this claim's own DKIM key; still, one project at most owns a name.
      if (!(await this.d.repo.markVerified(row.id, this.d.clock.now()))) throw Errors.conflict('This domain is already used by another project');
      await this.d.onVerifiedDomainsChanged?.();
    }
    // Told once when a verified domain's records stop checking out (the check before found them all).
    const wasAllFound = row.dnsCheck !== null && Object.values(row.dnsCheck).every((found) => found === true);
    if (!allFound && row.verified && wasAllFound) {
      const missing = checks.filter((c) => !c.found).map((c) => c.key).join(', ');
      await this.d.events?.emit({ type: 'dns_unverified', accountId: project.ownerId, projectId: project.id, domain: row.domain, message: `The DNS records of ${row.domain} stopped verifying (${missing}).` });
    }
    // A domain stays verified once it was: a later DNS outage must not stop its mail.
    if (!allFound) return { verified: row.verified, message: notVerifiedMessage(checks, row.verified), checks };
    return { verified: true, message: 'verified', checks };
  }

  async removeDomain(project: ProjectRow, input: string): Promise<void> {
    const row = await this.projectDomain(project, input);
    if (!(await this.d.repo.deleteDomain(row.id))) throw Errors.notFound('Domain');
    if (row.verified) await this.d.onVerifiedDomainsChanged?.();
  }

  async accounts(project: ProjectRow, input: string): Promise<MailAccountRow[]> {
    const row = this.requireVerified(await this.projectDomain(project, input));
    return this.d.repo.accounts(row.id);
  }

  /** A mailbox {username}@{domain}: the SPEC's username rules, then its password rules, in order. */
  async addAccount(project: ProjectRow, input: { email: string; domain: string; password: string }): Promise<MailAccountRow> {
    const row = this.requireVerified(await this.projectDomain(project, input.domain));
    const user = mailboxUsername(input.email);
    if (!user) throw Errors.validation(MAIL_MESSAGES.usernameInvalid);
    const email = `${user}@${row.domain}`;
    if (await this.d.repo.account(row.id, email)) throw Errors.conflict(MAIL_MESSAGES.emailExists);
    this.checkPassword(input.password);
    const now = this.d.clock.now();
    const values = { domainId: row.id, email, passwordHash: await hashMailboxPassword(input.password), quotaBytes: DEFAULT_QUOTA_BYTES, createdAt: now, updatedAt: now };
    const created = await this.d.limits.within(
      project.ownerId,
      'mailboxes',
      this.d.limits.counted('mailboxes', project.ownerId),
      (tx) => this.d.repo.insertAccount(values, tx),
      1,
      project.id,
    );
    if (!created) throw Errors.conflict(MAIL_MESSAGES.emailExists);
    return created;
  }

  async removeAccount(project: ProjectRow, input: string): Promise<void> {
    const { row, email } = await this.projectMailbox(project, input);
    if (!(await this.d.repo.deleteAccount(row.id, email))) throw Errors.notFound('Email account');
  }

  async changePassword(project: ProjectRow, input: string, password: string): Promise<void> {
    const { row, email } = await this.projectMailbox(project, input);
    if (!(await this.d.repo.account(row.id, email))) throw Errors.notFound('Email account');
    this.checkPassword(password);
    if (!(await this.d.repo.setPassword(row.id, email, await hashMailboxPassword(password), this.d.clock.now()))) throw Errors.notFound('Email account');
  }

  accountView(a: MailAccountRow) {
    return { email: a.email, created: a.createdAt.toISOString(), status: a.active ? ('active' as const) : ('unactive' as const), active: a.active, quota: a.quotaBytes };
  }

  /** Every verified domain's DKIM key, unsealed: what the mail host's OpenDKIM signs with. */
  async verifiedDkimKeys(): Promise<DkimKeyEntry[]> {
    const rows = await this.d.repo.verifiedDomains();
    return rows.map((r) => ({ domain: r.domain, selector: r.dkimSelector, privateKeyPem: this.dkimPrivateKey(r) }));
  }

  /** The domain's DKIM private key (PKCS#8 PEM), for signing the project's own mail. */
  dkimPrivateKey(row: SmtpDomainRow): string {
    return this.d.secrets.open(row.dkimPrivateKey);
  }

  private keys(row: SmtpDomainRow) {
    return { domain: row.domain, mailHost: this.d.mailHost, dkimSelector: row.dkimSelector, dkimPublicKey: row.dkimPublicKey };
  }

  private domainName(input: string): string {
    const check = normalizeDomain(input);
    if (!check.ok) throw Errors.validation(check.message);
    return check.domain;
  }

  /** The platform's own names (and the mail host's) can't be claimed by a project. */
  private isPlatformDomain(domain: string): boolean {
    const related = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
    return related(domain, this.d.platformDomain) || related(domain, this.d.mailHost);
  }

  private async refuseTaken(project: ProjectRow, domain: string): Promise<void> {
    const own = await this.d.repo.domainOfProject(project.id);
    if (own?.domain === domain) throw Errors.conflict('This domain is already added to this project');
    if (own) throw Errors.conflict(`This project already has a domain (${own.domain}); remove it to add another`);
    if (await this.d.repo.verifiedDomainByName(domain)) throw Errors.conflict('This domain is already used by another project');
  }

  /** The project's domain when `input` names it; any other name (or none yet) is a 404. */
  private async projectDomain(project: ProjectRow, input: string): Promise<SmtpDomainRow> {
    const domain = this.domainName(input);
    const row = await this.d.repo.domainOfProject(project.id);
    if (!row || row.domain !== domain) throw Errors.notFound('Domain');
    return row;
  }

  private requireVerified(row: SmtpDomainRow): SmtpDomainRow {
    if (!row.verified) throw Errors.conflict('Verify the domain before managing its mailboxes');
    return row;
  }

  /** A mailbox of the project's domain by full address or username; anything else is a 404. */
  private async projectMailbox(project: ProjectRow, input: string): Promise<{ row: SmtpDomainRow; email: string }> {
    const row = await this.d.repo.domainOfProject(project.id);
    if (!row) throw Errors.notFound('Email account');
    this.requireVerified(row);
    const at = input.lastIndexOf('@');
    const user = mailboxUsername(at < 0 ? input : input.slice(0, at));
    const domain = at < 0 ? row.domain : normalizeDomain(input.slice(at + 1));
    const sameDomain = typeof domain === 'string' ? true : domain.ok && domain.domain === row.domain;
    if (!user || !sameDomain || (at >= 0 && input.indexOf('@') !== at)) throw Errors.notFound('Email account');
    return { row, email: `${user}@${row.domain}` };
  }

  private checkPassword(password: string): void {
    const problem = mailboxPasswordProblem(password);
    if (problem) throw Errors.validation(problem);
  }
}
