// Push notifications as this console delivers them: while a console tab is open and the account's
// "Push notifications" setting is on (and the browser allows it), what goes wrong in the account's
// projects (failed deploys, crashes, DNS, quotas: the errors the server records) shows as a
// browser notification. Only errors newer than the ones this browser has already seen alert.
import { useEffect } from 'react';
import { useGetAccountDetails } from '../../api/generated/accounts/accounts';
import { useListAccountErrors } from '../../api/generated/activity/activity';
import type { ProjectError } from '../../api/generated/model';

const POLL_MS = 30_000;
const KIND: Record<ProjectError['kind'], string> = {
  deploy_failed: 'Deploy failed',
  runtime_crashed: 'Site crashed',
  dns_unverified: 'Mail DNS stopped verifying',
  quota_passed: 'Plan limit',
};

export function notificationsAllowed(): boolean {
  return typeof Notification !== 'undefined' && Notification.permission === 'granted';
}

const seenKey = (accountId: string) => `alerts_seen_${accountId}`;

export function BrowserAlerts() {
  const account = useGetAccountDetails();
  const on = account.data?.notifications.push === true && notificationsAllowed();
  const errors = useListAccountErrors({ page_size: 10 }, { query: { enabled: on, refetchInterval: POLL_MS, staleTime: 0 } });

  useEffect(() => {
    const accountId = account.data?.id;
    const list = errors.data?.errors;
    if (!on || !accountId || !list) return;
    const seen = localStorage.getItem(seenKey(accountId));
    const newest = list[0]?.created_at;
    if (newest) localStorage.setItem(seenKey(accountId), newest);
    // The first look only marks what is there: alerts are for what happens while the console is open.
    if (seen === null) return;
    for (const e of list.filter((x) => x.created_at > seen).reverse()) {
      new Notification(`${KIND[e.kind]}${e.project_name ? `: ${e.project_name}` : ''}`, { body: e.message, tag: e.id });
    }
  }, [on, account.data?.id, errors.data]);
  return null;
}
