// The developer's stored sign-in: one file in the user's config folder, readable by the user only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Credentials {
  url: string;
  email: string;
  token: string;
  device_token?: string;
}

export function configDir(env = process.env): string {
  if (env.HOSTBASE_CONFIG_DIR) return env.HOSTBASE_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'hostbase');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'hostbase');
}

export const credentialsFile = () => path.join(configDir(), 'credentials.json');

export function readCredentials(): Credentials | undefined {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(), 'utf8'));
  } catch {
    return undefined;
  }
}

export function writeCredentials(c: Credentials): string {
  const file = credentialsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written to a new private file, then moved over the old one: never readable by others, not even briefly.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(c, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** Deletes the stored sign-in; answers whether there was one. */
export function forgetCredentials(): boolean {
  const had = fs.existsSync(credentialsFile());
  fs.rmSync(credentialsFile(), { force: true });
  return had;
}
