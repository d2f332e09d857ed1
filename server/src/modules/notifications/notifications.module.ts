// Sends the notification mails (notification-mails.ts) for account events, to accounts whose
// email notifications are on. A mail that can't be sent is logged by the events channel and
// never fails the call that raised the event. The account and its project are read through their
// modules' services (app.accounts, app.projects).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { notificationMail } from './notification-mails';

export interface NotificationReaders {
  account: (id: string) => Promise<{ name: string; email: string; notifyEmail: boolean } | undefined>;
  project: (id: string) => Promise<{ name: string } | undefined>;
}

export function listenForNotificationMails(deps: Pick<Deps, 'events' | 'mailer' | 'config'>, read: NotificationReaders): void {
  deps.events.on(async (event) => {
    const account = await read.account(event.accountId);
    if (!account?.notifyEmail) return;
    const projectId = 'projectId' in event ? event.projectId : undefined;
    const project = projectId ? await read.project(projectId) : undefined;
    const mail = notificationMail(event, { accountName: account.name, projectName: project?.name, consoleUrl: deps.config.publicUrl });
    if (mail) await deps.mailer.send({ to: account.email, ...mail });
  });
}

export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    listenForNotificationMails(app.deps, {
      account: (id) => app.accounts.findById(id),
      project: (id) => app.projects.findById(id),
    });
  },
  { name: 'hostbase-notifications', dependencies: ['hostbase-accounts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);
