// Reads the .eml files the outbox mailer wrote: who, what, and the links in the body.
import fs from 'node:fs';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

function decodeBody(raw: string, headers: string): string {
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
  }
  if (/content-transfer-encoding:\s*base64/i.test(headers)) return Buffer.from(raw.replace(/\s/g, ''), 'base64').toString('utf8');
  return raw;
}

export function readOutbox(dir: string): OutboxMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const raw = fs.readFileSync(path.join(dir, f), 'utf8');
      const split = raw.indexOf('\r\n\r\n');
      const headers = raw.slice(0, split);
      const text = decodeBody(raw.slice(split + 4), headers);
      const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
      return { file: f, to: header('To'), subject: header('Subject'), text, links: text.match(/https?:\/\/[^\s>]+/g) ?? [] };
    });
}
