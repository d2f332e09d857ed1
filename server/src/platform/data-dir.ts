// DATA_DIR holds the platform's secrets (jwt-secret), database (PGlite), every project's files,
// deployments and outgoing mail. Hosted code and other local users must see none of it: it is
// created 0700 with files 0600 (umask 077 for everything the process writes, PGlite included),
// and a directory that others can read or write is repaired at start, with a log line.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_UMASK = 0o077;

export interface DataDirReport {
  /** Entries whose group/other permission bits were removed. */
  repaired: number;
}

/** Makes dataDir private; throws when it belongs to another user (we would not own our secrets). */
export function secureDataDir(dataDir: string): DataDirReport {
  process.umask(PRIVATE_UMASK);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dataDir);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new Error(`DATA_DIR ${dataDir} belongs to uid ${st.uid}, not to the platform's uid ${uid}: refusing to keep secrets there. Use a folder the platform owns.`);
  }
  // A private top folder already hides everything below it; only a loose one needs the walk.
  if ((st.mode & 0o077) === 0) return { repaired: 0 };
  return { repaired: removeOthersAccess(dataDir) };
}

/**
 * Removes group/other permission bits under dir; returns how many entries changed. PGlite's file
 * system layer chmods its files 0666 itself, whatever the umask: run after it opens and closes.
 * Between the two, DATA_DIR's own 0700 keeps everyone else out.
 */
export function removeOthersAccess(dir: string): number {
  let changed = 0;
  const fix = (p: string) => {
    let s: fs.Stats;
    try {
      s = fs.lstatSync(p);
    } catch {
      return; // removed meanwhile
    }
    if (s.isSymbolicLink()) return;
    if (s.mode & 0o077) {
      fs.chmodSync(p, s.mode & 0o700);
      changed++;
    }
    if (s.isDirectory()) for (const name of fs.readdirSync(p)) fix(path.join(p, name));
  };
  if (fs.existsSync(dir)) fix(dir);
  return changed;
}
