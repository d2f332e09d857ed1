// A project's mail in an archive: its domain (verification, DKIM selector and keys: the private
// key plain in the archive, sealed again with the target's secret on import) and its mailboxes
// (addresses, password hashes, quotas). The messages live on the mail host, not here.
import type { Deps } from '../../platform/deps';
import { LifecycleError, requireUuid, type ArchiveRow, type ProjectLifecycle } from '../projects';
import { smtpArchiveRows as rows } from './mail.repository';

const TABLES = {
  smtp_domains: {
    carried: ['id', 'domain', 'verified', 'verified_at', 'dkim_selector', 'dkim_private_key', 'dkim_public_key', 'dns_check', 'dns_checked_at', 'created_at'],
    leftOut: { project_id: "the section's project" },
  },
  mail_accounts: {
    carried: ['id', 'email', 'password_hash', 'active', 'quota_bytes', 'created_at', 'updated_at'],
    leftOut: { domain_id: "the section's mail domain (carried as that domain's id)" },
  },
} as const;

export function mailLifecycle(deps: Pick<Deps, 'secrets'>): ProjectLifecycle {
  return {
    name: 'smtp',
    after: ['projects'],
    tables: TABLES,

    async export(out) {
      const domain = await rows.domain(out.tx, out.projectId, TABLES.smtp_domains.carried);
      const accounts = domain ? await rows.mailboxes(out.tx, String(domain.id), TABLES.mail_accounts.carried) : [];
      out.put('mail', domain ? { domain: { ...domain, dkim_private_key: deps.secrets.open(String(domain.dkim_private_key)) }, accounts } : null);
      out.count('mailboxes', accounts.length);
    },

    async import(input) {
      const mail = input.row('mail');
      if (!mail) return;
      const domain = mail.domain as ArchiveRow | null;
      if (!domain || typeof domain !== 'object' || !Array.isArray(mail.accounts)) throw new LifecycleError('the mail domain in the archive is malformed');
      const domainId = requireUuid(domain.id, "the mail domain's id");
      if (typeof domain.dkim_private_key !== 'string') throw new LifecycleError('the mail domain has no DKIM key');
      const accounts = (mail.accounts as ArchiveRow[]).map((a): ArchiveRow => ({ ...a, domain_id: domainId }));
      if (domain.verified && (await rows.verifiedByAnother(input.tx, String(domain.domain))))
        throw new LifecycleError(`the mail domain ${String(domain.domain)} is verified by another project. Nothing was written.`);
      if ((await rows.takenAddresses(input.tx, accounts.map((a) => String(a.email)))).length) throw new LifecycleError('a mailbox of the archive exists on this platform. Nothing was written.');
      await rows.insertDomain(input.tx, ['project_id', ...TABLES.smtp_domains.carried], {
        ...domain,
        project_id: input.projectId,
        dkim_private_key: deps.secrets.seal(domain.dkim_private_key),
      });
      await rows.insertMailboxes(input.tx, ['domain_id', ...TABLES.mail_accounts.carried], accounts);
    },
  };
}
