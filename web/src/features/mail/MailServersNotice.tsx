import { Notice } from '../../components/PageHeader';

export const MAIL_SERVERS_NOT_ATTACHED =
  'You can add the domain and its mailboxes here, but the mailboxes will not receive or send mail until the mail servers are set up (see "Hosted e-mail" in docs/mail.md).';

/** Shown while the platform has no mail servers (smtp_domain_details.mail_servers_attached false: embedded PGlite, or not configured). */
export function MailServersNotice({ attached }: { attached: boolean | undefined }) {
  if (attached !== false) return null;
  return (
    <Notice>
      <strong>Mail servers not attached.</strong> {MAIL_SERVERS_NOT_ATTACHED}
    </Notice>
  );
}
