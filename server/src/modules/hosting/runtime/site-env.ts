// A site's own environment: variables and secrets its owner sets, passed to the site's processes
// (and to its builds: runtimeEnv() is the one source). Rules:
//  - names are POSIX environment names; the ones the platform sets (PORT, PATH, NODE_ENV, …) and
//    HOSTBASE_* are refused with a message, so a site can't break its own wiring;
//  - sizes are bounded per value, per site and in number (a process's environment is copied into
//    every exec of every child: 64 KiB stays far from the kernel's limits);
//  - a secret is sealed at rest with the platform's secret box (the one DKIM and API keys use),
//    bound to its project and name so a sealed value moved to another row does not open, and is
//    never returned: the API and the console show it masked;
//  - every change bumps sites.env_version in the same transaction, which locks the site's row, so
//    two concurrent changes can't together pass the total size. Instances restart a process that
//    was started with an older version (runtime.ensure, and HostingService.reconcile).
// Inside the sandbox the variables reach only the site's own command, after the privilege drop
// (site-init.cjs reads them from a file the platform writes): nothing the owner sets (LD_PRELOAD,
// NODE_OPTIONS) ever reaches a process that runs as root or the relay.
import type { SecretBox } from '../../../platform/crypto';
import { Errors } from '../../../platform/errors';
import type { HostingRepository } from '../hosting.repository';
import type { SiteEnvRow } from '../hosting.tables';

export const SITE_ENV_LIMITS = {
  maxVariables: 100,
  maxNameLength: 128,
  maxValueBytes: 32 * 1024,
  maxTotalBytes: 64 * 1024,
} as const;

/** Set by the platform for every site (sandbox.ts, runtime.docker.ts) or by the sandbox itself. */
export const RESERVED_ENV_NAMES = ['PORT', 'PATH', 'NODE_ENV', 'HOME', 'PWD', 'HOSTNAME'] as const;
const RESERVED_PREFIX = 'HOSTBASE_';
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface SiteEnvInput {
  name: string;
  value: string;
  secret?: boolean;
}

/** What a process is started with: the variables and the version they are of. */
export interface SiteEnvSnapshot {
  version: number;
  vars: Record<string, string>;
}

/** Why a name can't be used, in words for its owner; undefined when it can. */
export function envNameProblem(name: string): string | undefined {
  const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
  if (name.length > SITE_ENV_LIMITS.maxNameLength) return `The variable name "${shown}" is longer than ${SITE_ENV_LIMITS.maxNameLength} characters.`;
  if (!NAME.test(name)) return `"${shown}" is not a valid variable name: use letters, digits and underscores, not starting with a digit (like API_BASE_URL).`;
  const upper = name.toUpperCase();
  if ((RESERVED_ENV_NAMES as readonly string[]).includes(upper)) return `${name} is set by the platform for every site and can't be changed.`;
  if (upper.startsWith(RESERVED_PREFIX)) return `Names starting with ${RESERVED_PREFIX} are reserved for the platform.`;
  return undefined;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export class SiteEnv {
  constructor(
    private readonly repo: HostingRepository,
    private readonly secrets: SecretBox,
  ) {}

  async list(projectId: string) {
    return view(await this.repo.envOf(projectId));
  }

  /** Adds or replaces variables, all or none; returns the new list. */
  async set(projectId: string, inputs: SiteEnvInput[]) {
    const seen = new Set<string>();
    for (const v of inputs) {
      const problem = envNameProblem(v.name);
      if (problem) throw Errors.badRequest(problem);
      if (seen.has(v.name)) throw Errors.badRequest(`${v.name} is given twice.`);
      seen.add(v.name);
      if (v.value.includes('\0')) throw Errors.badRequest(`The value of ${v.name} contains a NUL character, which an environment can't hold.`);
      if (bytes(v.value) > SITE_ENV_LIMITS.maxValueBytes) throw Errors.badRequest(`The value of ${v.name} is larger than ${SITE_ENV_LIMITS.maxValueBytes / 1024} KiB.`);
    }
    const rows = await this.repo.changeEnv(projectId, async (current) => {
      const next = new Map(current.map((r) => [r.name, bytes(r.name) + bytes(r.secret ? this.open(projectId, r) : r.value)]));
      for (const v of inputs) next.set(v.name, bytes(v.name) + bytes(v.value));
      if (next.size > SITE_ENV_LIMITS.maxVariables) throw Errors.badRequest(`A site can have at most ${SITE_ENV_LIMITS.maxVariables} variables.`);
      const total = [...next.values()].reduce((a, b) => a + b, 0);
      if (total > SITE_ENV_LIMITS.maxTotalBytes) throw Errors.badRequest(`The site's variables would take ${total} bytes together; at most ${SITE_ENV_LIMITS.maxTotalBytes / 1024} KiB are allowed.`);
      return { upsert: inputs.map((v) => ({ name: v.name, secret: !!v.secret, value: v.secret ? this.seal(projectId, v.name, v.value) : v.value })), remove: [] };
    });
    return view(rows);
  }

  /** Removes the named variables (unknown names are ignored); returns the new list. */
  async unset(projectId: string, names: string[]) {
    return view(await this.repo.changeEnv(projectId, async () => ({ upsert: [], remove: names })));
  }

  /** The site's environment in plain text, as its processes and builds get it. */
  async runtimeEnv(projectId: string): Promise<SiteEnvSnapshot> {
    const { version, rows } = await this.repo.envWithVersion(projectId);
    const vars: Record<string, string> = {};
    for (const r of rows) vars[r.name] = r.secret ? this.open(projectId, r) : r.value;
    return { version, vars };
  }

  private seal(projectId: string, name: string, value: string): string {
    return sealVariable(this.secrets, projectId, name, value);
  }

  private open(projectId: string, row: Pick<SiteEnvRow, 'name' | 'value'>): string {
    return openVariable(this.secrets, projectId, row);
  }
}

/** A secret's value sealed bound to its project and name (also an import's: hosting.lifecycle.ts). */
export function sealVariable(secrets: SecretBox, projectId: string, name: string, value: string): string {
  return secrets.seal(JSON.stringify([projectId, name, value]));
}

/** A sealed secret's value; throws when it was sealed for another project or name. */
export function openVariable(secrets: SecretBox, projectId: string, row: Pick<SiteEnvRow, 'name' | 'value'>): string {
  const [p, n, v] = JSON.parse(secrets.open(row.value)) as [string, string, string];
  if (p !== projectId || n !== row.name) throw new Error(`sealed variable ${row.name} belongs to another site`);
  return v;
}

function view(rows: SiteEnvRow[]) {
  return {
    variables: [...rows]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((r) => ({ name: r.name, secret: r.secret, value: r.secret ? null : r.value, updated_at: r.updatedAt.toISOString() })),
    limits: {
      max_variables: SITE_ENV_LIMITS.maxVariables,
      max_name_length: SITE_ENV_LIMITS.maxNameLength,
      max_value_bytes: SITE_ENV_LIMITS.maxValueBytes,
      max_total_bytes: SITE_ENV_LIMITS.maxTotalBytes,
      reserved: [...RESERVED_ENV_NAMES],
    },
  };
}
