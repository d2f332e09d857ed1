// Mails the platform wrote to DATA_DIR/outbox (no SMTP_URL in the journeys): .eml files whose
// bodies may be quoted-printable, so soft line breaks ("=\r\n") and "=3D" are decoded before
// links are read.
import fs from 'node:fs';
import path from 'node:path';

export interface Mail {
  file: string;
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export function decodeQuotedPrintable(body: string): string {
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function readMails(dataDir: string): Mail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = fs.readFileSync(path.join(dir, file), 'utf8');
      const split = raw.search(/\r?\n\r?\n/);
      const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
      const rawBody = raw.slice(split).trimStart();
      const text = /content-transfer-encoding:\s*quoted-printable/i.test(headers) ? decodeQuotedPrintable(rawBody) : rawBody;
      const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headers)?.[1]?.trim() ?? '';
      return { file, to: header('To'), subject: header('Subject'), text, links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [] };
    });
}

/** Waits for a mail to `to` whose subject matches, newer than the ones in `seen`. */
export async function waitForMail(dataDir: string, to: string, subject: RegExp, seen: string[] = [], timeoutMs = 10_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = readMails(dataDir).find((m) => !seen.includes(m.file) && m.to.includes(to) && subject.test(m.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
