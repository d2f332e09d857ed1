// The platform's own outgoing mail (reset links, verification links). With SMTP_URL it goes
// through that server; without it each message is written to DATA_DIR/outbox/ as an .eml file
// and its links are logged, so a local install works with no mail server at all.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  readonly kind: 'smtp' | 'outbox';
}

export function createOutboxMailer(dir: string, from: string, log?: FastifyBaseLogger): Mailer {
  return {
    kind: 'outbox',
    async send(message) {
      await fs.mkdir(dir, { recursive: true });
      const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
      const eml = await new MailComposer({ from, ...message }).compile().build();
      // A file name that sorts by write time (operational: the real clock, not the injected one).
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.eml`);
      // Write then rename: a reader polling the outbox never sees half a message.
      await fs.writeFile(file + '.tmp', eml, { mode: 0o600 });
      await fs.rename(file + '.tmp', file);
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      log?.info({ to: message.to, subject: message.subject, file, links }, 'mail written to outbox');
    },
  };
}

export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = smtpTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/**
 * nodemailer's transport for an SMTP URL, made when the first message goes out: nodemailer and
 * its dependencies (~2 MB of heap, ~40 modules) are loaded only by a platform that sends mail,
 * not at every start (the embedded default should start small).
 */
export function smtpTransport(url: string): { sendMail(message: SendMailOptions): Promise<unknown> } {
  let transport: Promise<Transporter> | undefined;
  return {
    async sendMail(message) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url));
      return (await transport).sendMail(message);
    },
  };
}
