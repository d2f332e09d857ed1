// The mails a developer gets about their account when email notifications are on (the account
// setting notify_email): a deploy that failed, a plan limit at 80 % or 100 %, two-factor
// authentication turned off. Built from account events (platform/account-events.ts); other events
// (a crash, DNS) are for the project's errors panel, not the inbox.
import type { AccountEvent } from '../../platform/account-events';

export interface MailContext {
  accountName: string;
  projectName?: string;
  consoleUrl: string;
}

export function notificationMail(event: AccountEvent, ctx: MailContext): { subject: string; text: string } | undefined {
  const hi = `Hi ${ctx.accountName},\n\n`;
  const bye = `\nYou get these mails because email notifications are on; turn them off in Settings: ${ctx.consoleUrl}/console/account\n`;
  const project = ctx.projectName ? `"${ctx.projectName}"` : 'your project';
  switch (event.type) {
    case 'deploy_failed':
      return {
        subject: `Deploy failed: ${ctx.projectName ?? 'your project'}`,
        text: `${hi}A deploy of ${project} failed; the live site stays as it was.\n\n${event.message}\n\nDeployments: ${ctx.consoleUrl}/project/${event.projectId}/hosting\n${bye}`,
      };
    case 'quota_passed':
      return {
        subject: event.percent >= 100 ? `${event.limit}: your ${event.plan} plan's limit is reached` : `${event.limit}: ${event.percent} % of your ${event.plan} plan's limit`,
        text: `${hi}${event.message}\n\nPlans and usage: ${ctx.consoleUrl}/console/account\n${bye}`,
      };
    case 'mfa_disabled':
      return {
        subject: 'Two-factor authentication was turned off',
        text: `${hi}Two-factor authentication was turned off for your Hostbase account. Signing in now takes only your password.\n\nIf this wasn't you, reset your password at once and turn two-factor authentication on again: ${ctx.consoleUrl}/console/account\n${bye}`,
      };
    default:
      return undefined;
  }
}
