import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountDetails, getGetAccountDetailsQueryKey } from '../../api/generated/accounts/accounts';
import type { Account, NotificationPreferences } from '../../api/generated/model';
import { Switch } from './Switch';

/** Kept on the account by the server: the same in every browser the developer signs in from. */
export function NotificationsSection({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: Partial<NotificationPreferences>) => getAccountDetails({ notifications: change }),
    onSuccess: (acc) => queryClient.setQueryData(getGetAccountDetailsQueryKey(), acc),
    meta: { errorToast: 'Could not save your notification settings' },
  });
  // While a change is on its way the switch shows it; a refusal puts the saved value back.
  const shown = { ...account.notifications, ...(save.isPending ? save.variables : {}) };
  return (
    <section className="card panel" aria-labelledby="notif-title">
      <h2 id="notif-title" className="panel-title">Notifications</h2>
      <Switch
        label="Email notifications"
        description="Failed deploys, plan limits at 80 % and 100 %, and two-factor authentication turned off."
        checked={shown.email}
        onChange={(email) => save.mutate({ email })}
      />
      <Switch label="Push notifications" description="Alerts in this browser." checked={shown.push} onChange={(push) => save.mutate({ push })} />
    </section>
  );
}
