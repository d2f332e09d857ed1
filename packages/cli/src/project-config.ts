// hostbase.json: what `hostbase init` and `hostbase link` record in an app's folder (the platform,
// the linked project, the folder to deploy and its type), so that later commands run in that folder
// or below it need no options. Found by walking up from the current folder, as git finds .git.
import fs from 'node:fs';
import path from 'node:path';
import { CliError } from './errors.js';

export const CONFIG_FILE = 'hostbase.json';

export interface ProjectConfig {
  /** The platform's address. */
  url?: string;
  /** The linked project's id, and its subdomain for people reading the file. */
  project?: string;
  subdomain?: string;
  /** The folder `hostbase deploy` sends, relative to this file (default "."). */
  folder?: string;
  /** The site's type (default: guessed from the folder at each deploy). */
  type?: string;
}

export interface Found {
  file: string;
  config: ProjectConfig;
}

/** The nearest hostbase.json from `from` upwards, if any. */
export function findProjectConfig(from = process.cwd()): Found | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const file = path.join(dir, CONFIG_FILE);
    if (fs.existsSync(file)) {
      try {
        return { file, config: JSON.parse(fs.readFileSync(file, 'utf8')) as ProjectConfig };
      } catch (err) {
        throw new CliError(`${file} is not valid JSON (${(err as Error).message}): fix or delete it.`);
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Merges `changes` into the file (created when missing); answers the file and what it now holds. */
export function writeProjectConfig(file: string, changes: ProjectConfig): Found {
  let config: ProjectConfig = {};
  try {
    config = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* a new file */
  }
  config = { ...config, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  fs.writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
  return { file, config };
}
