import { sql } from 'drizzle-orm';
import { pgTable, uuid, text, timestamp, bigint, integer, primaryKey, boolean, jsonb, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables';

export const siteDeployments = pgTable('site_deployments', {
  id: uuid('id').primaryKey().defaultRandom(),
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  type: text('type').notNull(),
  status: text('status', { enum: ['building', 'live', 'failed'] }).notNull(),
  sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
  fileCount: integer('file_count').notNull().default(0),
  root: text('root').notNull().default(''),
  /** Runtime types: the file the process starts from (relative to root). */
  entry: text('entry'),
  error: text('error'),
  buildLog: text('build_log').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** Bytes charged to the owner's storage: the archive plus the extracted files (0 once failed). */
  storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull().default(0),
  /** While building: the instance that builds it, and when it last said it still does. */
  builder: text('builder'),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
  /** Static types: the parsed _redirects and _headers (site-rules.ts); null when there are none. */
  rules: jsonb('rules').$type<SiteRules>(),
  /** Built from source: what the build detected (Vite, Next.js, Flask, …); null for an upload served as it came. */
  framework: text('framework'),
  /** Built Node, PHP and Flask sites: the argv started inside the sandbox at /app (null: from entry). */
  command: jsonb('command').$type<string[]>(),
  /** Built from source: static, node, php or flask (null: decided by the type). Read it through deploymentKind(). */
  runtime: text('runtime', { enum: ['static', 'node', 'php', 'flask'] }),
  /** Built from source: when it took a build slot (null while it waits); running builds count against BUILD_PER_ACCOUNT. */
  buildStartedAt: timestamp('build_started_at', { withTimezone: true }),
}, (t) => [
  // One build from source per site at a time (migration 0026): a second framework write is a 23505.
  uniqueIndex('site_deployments_one_build_key').on(t.projectId).where(sql`status = 'building' AND framework IS NOT NULL`),
]);
export type DeploymentRow = typeof siteDeployments.$inferSelect;

export const sites = pgTable('sites', {
  projectId: uuid('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  liveDeploymentId: uuid('live_deployment_id').references(() => siteDeployments.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Goes up with every change of site_env: a process started with an older one is restarted. */
  envVersion: integer('env_version').notNull().default(0),
});

/** The site's own environment (site-env.ts); a secret's value is sealed. */
export const siteEnv = pgTable(
  'site_env',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull(),
    secret: boolean('secret').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);
export type SiteEnvRow = typeof siteEnv.$inferSelect;

export const siteTraffic = pgTable(
  'site_traffic',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    bytesIn: bigint('bytes_in', { mode: 'number' }).notNull().default(0),
    bytesOut: bigint('bytes_out', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour] })],
);

export const siteErrors = pgTable(
  'site_errors',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    status: integer('status').notNull(),
    path: text('path').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.status, t.path] })],
);

/** Manifest deployments (instant redeploys): path → sha256 of each file, kept with the deployment. */
export const siteManifests = pgTable('site_manifests', {
  deploymentId: uuid('deployment_id').primaryKey().references(() => siteDeployments.id, { onDelete: 'cascade' }),
  files: jsonb('files').$type<Record<string, string>>().notNull(),
});

/** The content-addressed files a project's deployments share (object store: sites/<project>/blobs/<sha256>). */
export const siteBlobs = pgTable(
  'site_blobs',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    digest: text('digest').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.digest] })],
);

/** The owner's overrides of what builds from source detect (null = detected). */
export const siteBuildSettings = pgTable('site_build_settings', {
  projectId: uuid('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  rootDirectory: text('root_directory'),
  installCommand: text('install_command'),
  buildCommand: text('build_command'),
  startCommand: text('start_command'),
  outputDirectory: text('output_directory'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type BuildSettingsRow = typeof siteBuildSettings.$inferSelect;

/** The host identity (uid = gid) a project's site processes run as (site-identities.ts). */
export const siteIdentities = pgTable('site_identities', {
  projectId: uuid('project_id').primaryKey().references(() => projects.id, { onDelete: 'cascade' }),
  uid: integer('uid').notNull().unique(),
});

// The shape of site_deployments.rules: a static deployment's _redirects and _headers, parsed and
// checked when it was deployed (deploy/site-rules.ts).
export type RedirectStatus = 301 | 302 | 303 | 307 | 308 | 200 | 404;

export interface RedirectRule {
  from: string;
  to: string;
  status: RedirectStatus;
  force: boolean;
}

export interface HeaderRule {
  path: string;
  /** Lower-case names. */
  headers: [string, string][];
}

/** What is stored with a deployment (site_deployments.rules). */
export interface SiteRules {
  redirects: RedirectRule[];
  headers: HeaderRule[];
}
