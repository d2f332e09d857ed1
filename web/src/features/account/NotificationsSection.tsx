import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountDetails, getGetAccountDetailsQueryKey } from '../../api/generated/accounts/accounts';
import type { Account, NotificationPreferences } from '../../api/generated/model';
import { FormError } from '../../components/FormError';
import { Switch } from './Switch';

/** Browser alerts need the browser's permission: asked when the switch goes on. */
async function allowBrowserAlerts(): Promise<string | null> {
  if (typeof Notification === 'undefined') return 'This browser can not show notifications.';
  const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  return permission === 'granted' ? null : "Notifications are blocked for this site in the browser's settings.";
}

/** Kept on the account by the server: the same in every browser the developer signs in from. */
export function NotificationsSection({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  const [pushError, setPushError] = useState<string | null>(null);
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
      <Switch
        label="Push notifications"
        description="Alerts in this browser."
        checked={shown.push}
        onChange={async (push) => {
          setPushError(null);
          const refused = push ? await allowBrowserAlerts() : null;
          if (refused) setPushError(refused);
          else save.mutate({ push });
        }}
      />
      <FormError message={pushError} />
    </section>
  );
}
