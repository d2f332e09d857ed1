import { useGetSmtpDomainDetails } from '../../api/generated/mail/mail';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/States';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { AddDomainForm } from './AddDomainForm';
import { DnsRecordsTable } from './DnsRecordsTable';
import { DomainCard } from './DomainCard';
import { MailboxList } from './MailboxList';
import { MailServersNotice } from './MailServersNotice';
import { ServerSettings } from './ServerSettings';

export default function EmailPage() {
  usePageTitle('Email');
  const { projectId } = useProject();
  const details = useGetSmtpDomainDetails(projectId, { project_id: projectId });

  return (
    <div className="console-page">
      <PageHeader title="Email" description="Hosted SMTP and IMAP for one custom sending domain." />
      <MailServersNotice attached={details.data?.mail_servers_attached} />
      <QueryView
        query={details}
        loading="Loading the mail domain..."
        errorTitle="Could not load the mail domain"
        isEmpty={(d) => !d.domain}
        empty={<AddDomainForm projectId={projectId} />}
      >
        {(d) => {
          const domain = d.domain!;
          const mx = d.dnsRecords?.find((r) => r.type.toUpperCase() === 'MX')?.value;
          const mailHost = (mx ?? `mail.${domain}`).replace(/\.$/, '');
          return (
            <>
              <DomainCard projectId={projectId} domain={domain} details={d} />
              <DnsRecordsTable details={d} />
              {d.verified && (
                <>
                  <MailboxList projectId={projectId} domain={domain} />
                  <ServerSettings host={mailHost} />
                </>
              )}
            </>
          );
        }}
      </QueryView>
    </div>
  );
}
