// Projects: creation with a unique subdomain, ownership checks, API keys (random, stored hashed
// and sealed, rotatable), and deletion that lets every module clean up what it holds.
import crypto from 'node:crypto';
import { siteUrl } from './site-url';
import type { Clock } from '../../platform/clock';
import type { LookupCache } from '../../platform/lookup-cache';
import { randomToken, sha256, type SecretBox } from '../../platform/crypto';
import { Errors } from '../../platform/errors';
import type { ProjectsRepository } from './projects.repository';
import type { ProjectRow, ProjectKeyKind } from './projects.tables';
import { normalizeSubdomain, subdomainProblem } from './subdomain';
import type { PlanLimitGuard } from '../plans';
import type { ProjectKeyRole } from '../caller';

/**
 * The prefixes of each kind's keys, the one new keys get first. The authentication key is the
 * publishable key and the bucket key the secret key: keys made before they had those names keep
 * their prefix and keep working until rotated.
 */
const KEY_PREFIXES: Record<ProjectKeyKind, readonly string[]> = { bucket: ['hb_secret_', 'hb_bucket_'], authentication: ['hb_publishable_', 'hb_auth_'] };

/** The stored kind of each app key's role. */
export const KEY_KIND: Record<ProjectKeyRole, ProjectKeyKind> = { publishable: 'authentication', secret: 'bucket' };
export const KEY_ROLE: Record<ProjectKeyKind, ProjectKeyRole> = { authentication: 'publishable', bucket: 'secret' };

/** The kind a key's prefix says it is, or undefined. */
export function keyKindOf(key: string): ProjectKeyKind | undefined {
  return (Object.keys(KEY_PREFIXES) as ProjectKeyKind[]).find((kind) => KEY_PREFIXES[kind].some((prefix) => key.startsWith(prefix)));
}

/** Runs when a project is deleted, before its rows go: files, sites, processes, mail. */
export type ProjectCleanup = (project: ProjectRow) => Promise<void>;

export interface ProjectsServiceDeps {
  repo: ProjectsRepository;
  secrets: SecretBox;
  clock: Clock;
  platformDomain: string;
  bucketDomain: string;
  /** The project each app key names, kept in memory (platform/lookup-cache.ts). */
  lookups: Pick<LookupCache, 'get'>;
  /** The plan's project limit (plans/plan-limits.ts). */
  limits: PlanLimitGuard;
}

export class ProjectsService {
  private readonly cleanups: { name: string; run: ProjectCleanup }[] = [];

  constructor(private readonly d: ProjectsServiceDeps) {}

  onDelete(name: string, run: ProjectCleanup): void {
    this.cleanups.push({ name, run });
  }

  domainOf(project: Pick<ProjectRow, 'subdomain'>): string {
    return `${project.subdomain}.${this.d.platformDomain}`;
  }

  /** The site's address for links: PUBLIC_URL's scheme and port with the project's domain. */
  siteUrlOf(project: Pick<ProjectRow, 'subdomain'>): string {
    return siteUrl(this.d.bucketDomain, this.domainOf(project));
  }

  list(ownerId: string): Promise<ProjectRow[]> {
    return this.d.repo.listByOwner(ownerId);
  }

  /** The caller's project, or 404 (another account's project is indistinguishable from none). */
  /** A project whoever owns it: for the platform's own events (a crashed site names only its project). */
  findById(projectId: string): Promise<ProjectRow | undefined> {
    return this.d.repo.findById(projectId);
  }

  async requireOwned(ownerId: string, projectId: string): Promise<ProjectRow> {
    const project = await this.d.repo.findOwned(ownerId, projectId);
    if (!project) throw Errors.notFound('Project');
    return project;
  }

  async checkSubdomain(input: string): Promise<{ available: boolean; reason?: 'taken' | 'invalid' | 'reserved'; message: string }> {
    const subdomain = normalizeSubdomain(input);
    const problem = subdomainProblem(subdomain);
    if (problem === 'invalid')
      return { available: false, reason: 'invalid', message: 'Use 3 to 63 characters: lowercase letters, digits and inner hyphens' };
    if (problem === 'reserved') return { available: false, reason: 'reserved', message: 'This subdomain is reserved' };
    if (await this.d.repo.findBySubdomain(subdomain)) return { available: false, reason: 'taken', message: 'Subdomain is already taken' };
    return { available: true, message: 'Subdomain is available' };
  }

  async create(ownerId: string, input: { projectName: string; subdomain: string; description?: string }): Promise<ProjectRow> {
    const name = input.projectName.trim();
    if (!name) throw Errors.validation('body/projectName must not be empty');
    const subdomain = normalizeSubdomain(input.subdomain);
    const problem = subdomainProblem(subdomain);
    if (problem === 'invalid') throw Errors.validation('body/subdomain must be 3 to 63 characters: lowercase letters, digits and inner hyphens');
    if (problem === 'reserved') throw Errors.conflict('This subdomain is reserved');
    const keys = (['bucket', 'authentication'] as const).map((kind) => this.newKey(kind));
    const values = { ownerId, name, description: input.description?.trim() || null, subdomain, bucketId: `bkt_${crypto.randomBytes(8).toString('hex')}` };
    const project = await this.d.limits.within(
      ownerId,
      'projects',
      this.d.limits.counted('projects', ownerId),
      (tx) => this.d.repo.create(values, keys.map((k) => k.row), tx),
    );
    // The unique index decided: a concurrent create of the same subdomain lands here.
    if (!project) throw Errors.conflict('Subdomain is already taken');
    return project;
  }

  async delete(ownerId: string, projectId: string, confirm: string): Promise<void> {
    const project = await this.requireOwned(ownerId, projectId);
    if (normalizeSubdomain(confirm) !== project.subdomain) throw Errors.validation('body/confirm must equal the project\'s subdomain');
    for (const cleanup of this.cleanups) await cleanup.run(project);
    await this.d.repo.delete(project.id);
  }

  async key(project: ProjectRow, kind: ProjectKeyKind): Promise<string> {
    const row = await this.d.repo.activeKey(project.id, kind);
    if (!row) throw Errors.notFound('API key');
    return this.d.secrets.open(row.keyEnc);
  }

  async rotateKey(project: ProjectRow, kind: ProjectKeyKind): Promise<string> {
    const key = this.newKey(kind);
    await this.d.repo.rotateKey(project.id, key.row, this.d.clock.now());
    return key.plain;
  }

  /** The project an app's key belongs to, or undefined for an unknown or rotated key. */
  async projectForKey(kind: ProjectKeyKind, key: string): Promise<ProjectRow | undefined> {
    if (keyKindOf(key) !== kind || key.length > 200) return undefined;
    const keyHash = sha256(key);
    return this.d.lookups.get(`key:${kind}:${keyHash}`, () => this.d.repo.projectByKeyHash(kind, keyHash), (p) => [`project:${p.id}`]);
  }

  /** The project and role of a publishable or secret key (X-Hostbase-Key), or undefined. */
  async projectForAnyKey(key: string): Promise<{ project: ProjectRow; role: ProjectKeyRole } | undefined> {
    const kind = keyKindOf(key);
    if (!kind) return undefined;
    const project = await this.projectForKey(kind, key);
    return project && { project, role: KEY_ROLE[kind] };
  }

  get bucketDomain(): string {
    return this.d.bucketDomain;
  }

  private newKey(kind: ProjectKeyKind) {
    // 32 random bytes: 256 bits, far above the 128 the platform promises.
    const plain = KEY_PREFIXES[kind][0] + randomToken(32);
    return { plain, row: { kind, keyHash: sha256(plain), keyEnc: this.d.secrets.seal(plain) } };
  }
}

export function projectView(p: ProjectRow, domain: string, siteUrlOf: string) {
  return {
    id: p.id,
    project_id: p.id,
    project_name: p.name,
    description: p.description,
    subdomain: p.subdomain,
    primary_domain: domain,
    site_url: siteUrlOf,
    created_at: p.createdAt.toISOString(),
  };
}
