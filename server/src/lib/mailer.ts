// The platform's own outgoing mail (reset links, verification links). With SMTP_URL it goes
// through that server; without it each message is written to DATA_DIR/outbox/ as an .eml file
// and its links are logged, so a local install works with no mail server at all.
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
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
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
