// DKIM keys to the mail host (OpenDKIM) without a plain private key ever in the database: the
// platform, which holds the secret that sealed them, unseals the verified domains' keys and writes
// OpenDKIM's KeyTable, SigningTable and one 0600 key file per domain into MAIL_DKIM_DIR, then asks
// OpenDKIM to reload (SIGUSR1 to the pid in MAIL_DKIM_PID_FILE). Run after each verification or
// removal by the server itself when MAIL_DKIM_DIR is set, and as a command by
// scripts/mail/sync-dkim-keys.sh: `node dist/server/src/modules/mail/dkim-export.js` (the
// platform's environment: DATABASE_URL, JWT_SECRET, MAIL_DKIM_DIR).
import fs from 'node:fs';
import path from 'node:path';

export interface DkimKeyEntry {
  domain: string;
  selector: string;
  privateKeyPem: string;
}

export interface DkimExportOptions {
  dir: string;
  /** OpenDKIM's pid file: signalled to reload the tables when given and running. */
  pidFile?: string;
}

/** The uid/gid of the opendkim user (from /etc/passwd), for the key files' owner when run as root. */
function opendkimOwner(): { uid: number; gid: number } | undefined {
  try {
    const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('opendkim:'));
    if (!line) return undefined;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return undefined;
  }
}

function writeAtomic(file: string, content: string, mode: number, owner?: { uid: number; gid: number }): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, content, { mode });
  fs.chmodSync(tmp, mode);
  if (owner) fs.chownSync(tmp, owner.uid, owner.gid);
  fs.renameSync(tmp, file);
}

/** Writes the tables and key files for exactly these domains (stale key files removed); reloads OpenDKIM. */
export function writeDkimKeys(entries: DkimKeyEntry[], options: DkimExportOptions): void {
  const keysDir = path.join(options.dir, 'keys');
  fs.mkdirSync(keysDir, { recursive: true, mode: 0o750 });
  const owner = process.getuid?.() === 0 ? opendkimOwner() : undefined;
  if (owner) fs.chownSync(keysDir, owner.uid, owner.gid);
  const keep = new Set<string>();
  const keyTable: string[] = [];
  const signingTable: string[] = [];
  for (const e of entries) {
    // Names were checked on the way in (normalizeDomain, dkimSelector); refuse anything else here.
    if (!/^[a-z0-9.-]+$/.test(e.domain) || !/^[a-z0-9-]+$/.test(e.selector)) continue;
    const file = path.join(keysDir, `${e.domain}.${e.selector}.private`);
    keep.add(path.basename(file));
    writeAtomic(file, e.privateKeyPem, 0o600, owner);
    keyTable.push(`${e.selector}._domainkey.${e.domain} ${e.domain}:${e.selector}:${file}`);
    // refile: a pattern per domain; "@" anchors it so a look-alike domain doesn't match.
    signingTable.push(`*@${e.domain} ${e.selector}._domainkey.${e.domain}`);
  }
  writeAtomic(path.join(options.dir, 'KeyTable'), keyTable.join('\n') + '\n', 0o640, owner);
  writeAtomic(path.join(options.dir, 'SigningTable'), signingTable.join('\n') + '\n', 0o640, owner);
  for (const f of fs.readdirSync(keysDir)) if (!keep.has(f)) fs.rmSync(path.join(keysDir, f), { force: true });
  reloadOpendkim(options.pidFile);
}

function reloadOpendkim(pidFile: string | undefined): void {
  if (!pidFile) return;
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  } catch {
    return; // not running: it reads the tables when it starts
  }
  if (!Number.isInteger(pid) || pid <= 1) return;
  try {
    process.kill(pid, 'SIGUSR1');
  } catch {
    // gone since it wrote the pid file
  }
}

/** The command: every verified domain's key, from the platform database, to MAIL_DKIM_DIR. */
async function main(): Promise<void> {
  const { loadConfig } = await import('../../config');
  const { openDatabase } = await import('../../db/client');
  const { createSecretBox, deriveKey } = await import('../../platform/crypto');
  const { MailRepository } = await import('./mail.repository');
  const dir = process.env.MAIL_DKIM_DIR;
  if (!dir) throw new Error('MAIL_DKIM_DIR must name the directory OpenDKIM reads its keys from');
  const config = loadConfig(process.env);
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
  try {
    const secrets = createSecretBox(deriveKey(config.jwtSecret, 'secret-box'));
    const rows = await new MailRepository(database.db).verifiedDomains();
    writeDkimKeys(rows.map((r) => ({ domain: r.domain, selector: r.dkimSelector, privateKeyPem: secrets.open(r.dkimPrivateKey) })), { dir, pidFile: process.env.MAIL_DKIM_PID_FILE || undefined });
    console.log(`DKIM keys of ${rows.length} verified domain(s) written to ${dir}`);
  } finally {
    await database.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
