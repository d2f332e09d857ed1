import { useGetAccountDetails } from '../../api/generated/accounts/accounts';
import { PageHeader } from '../../components/PageHeader';
import { QueryView } from '../../components/States';
import { usePageTitle } from '../../lib/usePageTitle';
import { BillingSection } from './BillingSection';
import { MfaSection } from './MfaSection';
import { NotificationsSection } from './NotificationsSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';

export default function AccountPage() {
  usePageTitle('Settings');
  const account = useGetAccountDetails();
  return (
    <div className="console-page narrow">
      <PageHeader title="Settings" description="Your profile, password, two-factor authentication and notifications." />
      <QueryView query={account} loading="Loading your account..." errorTitle="Could not load your account">
        {(data) => (
          <div className="stack">
            <ProfileSection account={data} />
            <PasswordSection email={data.email} name={data.name} />
            <MfaSection account={data} />
            <NotificationsSection account={data} />
            <BillingSection plan={data.plan} />
          </div>
        )}
      </QueryView>
    </div>
  );
}
