// Which mailer a project's end-user mails (reset, verification) go out through. A project whose
// mail domain is verified sends from no-reply@{its domain} over the platform's project-mail path
// (MAIL_PROJECT_SMTP_URL: the mail host's platform port, which DKIM-signs with the domain's key);
// any other project, or every project when that path isn't configured, sends from the platform.
//
// No fallback: when the project path fails for a verified domain the error propagates (logged
// with the project and domain), exactly as a failing SMTP_URL does for the platform's own mail.
// Sending a password-reset link from a different identity than the one the developer set up
// would look like phishing to their users, fail the domain's expectations (its DMARC, the
// From its app announces) and hide a broken mail host; a visible failure gets it fixed.
import type { Deps } from '../../platform/deps';
import { smtpTransport, type Mailer, type MailMessage } from '../../platform/mailer';
import { MailRepository } from './mail.repository';

export interface ProjectMailers {
  /** The mailer for this project's end-user mails. */
  forProject(project: { id: string; name: string }): Promise<Mailer>;
}

/** What the project path needs of a nodemailer transport. */
export interface MailTransport {
  sendMail(message: MailMessage & { from: string | { name: string; address: string } }): Promise<unknown>;
}

export interface ProjectMailersOptions {
  platform: Mailer;
  /** The project-mail path; absent: every project sends from the platform. */
  projectTransport?: MailTransport;
  /** The project's verified mail domain, if it has one. */
  verifiedDomainOf(projectId: string): Promise<string | undefined>;
  log?: { error(obj: object, msg: string): void };
}

export const PROJECT_SENDER = 'no-reply';

export function createProjectMailers(o: ProjectMailersOptions): ProjectMailers {
  return {
    async forProject(project) {
      const transport = o.projectTransport;
      if (!transport) return o.platform;
      const domain = await o.verifiedDomainOf(project.id);
      if (!domain) return o.platform;
      const address = `${PROJECT_SENDER}@${domain}`;
      return {
        kind: 'smtp',
        async send(message) {
          try {
            await transport.sendMail({ ...message, from: { name: project.name, address } });
          } catch (err) {
            o.log?.error({ err, projectId: project.id, from: address }, 'project mail not sent (MAIL_PROJECT_SMTP_URL)');
            throw err;
          }
        },
      };
    },
  };
}

/** End-user mails from the project's verified domain when MAIL_PROJECT_SMTP_URL is set, else from the platform. */
export function projectMailers(deps: Pick<Deps, 'db' | 'config' | 'mailer' | 'log'>) {
  const smtp = new MailRepository(deps.db);
  const url = deps.config.mailProjectSmtpUrl;
  return createProjectMailers({
    platform: deps.mailer,
    projectTransport: url ? smtpTransport(url) : undefined,
    verifiedDomainOf: async (projectId) => {
      const row = await smtp.domainOfProject(projectId);
      return row?.verified ? row.domain : undefined;
    },
    log: deps.log,
  });
}
