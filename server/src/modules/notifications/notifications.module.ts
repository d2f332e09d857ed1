// Sends the notification mails (notification-mails.ts) for account events, to accounts whose
// email notifications are on. A mail that can't be sent is logged by the events channel and
// never fails the call that raised the event.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { accounts } from '../accounts/accounts.tables';
import { projects } from '../projects/projects.tables';
import { notificationMail } from './notification-mails';

export function listenForNotificationMails(deps: Pick<Deps, 'db' | 'events' | 'mailer' | 'config'>): void {
  deps.events.on(async (event) => {
    const [account] = await deps.db
      .select({ name: accounts.name, email: accounts.email, notifyEmail: accounts.notifyEmail })
      .from(accounts)
      .where(eq(accounts.id, event.accountId))
      .limit(1);
    if (!account?.notifyEmail) return;
    const projectId = 'projectId' in event ? event.projectId : undefined;
    const [project] = projectId ? await deps.db.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId)).limit(1) : [];
    const mail = notificationMail(event, { accountName: account.name, projectName: project?.name, consoleUrl: deps.config.publicUrl });
    if (mail) await deps.mailer.send({ to: account.email, ...mail });
  });
}

export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    listenForNotificationMails(app.deps);
  },
  { name: 'hostbase-notifications', decorators: { fastify: ['deps'] } },
);
