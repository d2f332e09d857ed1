// The mail module's face: what other modules and app.ts may use. Everything else in this folder
// is the module's own (npm run lint:deps fails on an import of it from outside).
// Hosted mail: a project's mail domain and mailboxes.
export { mailPlugin } from './mail.module';
export type { MailService } from './mail.service';
export type { MailAccountRow, SmtpDomainRow } from './mail.tables';
// Which mailer a project's end-user mails go out through (end-users).
export { projectMailers, type ProjectMailers } from './project-mailer';
// A mail domain's normal form (domains checks a custom domain against it).
export { normalizeDomain } from './mail-rules';
// Its lifecycle section, for an archive made without a running platform (cli/project.ts).
export { mailLifecycle } from './mail.lifecycle';
