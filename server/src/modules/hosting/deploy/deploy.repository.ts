// The door of manifest deploys' rows (instant-deploy.ts): site_manifests (a deployment's
// `{path: sha256}`) and site_blobs (the digests a project has stored), and site_deployments as far
// as collecting blobs asks which deployments remain. The other hosting rows are
// hosting.repository.ts's.
import type { Database } from '../../../db/client';

export class DeployRepository {
  constructor(private readonly database: Database) {}

  /** Which of `digests` the project has stored (any order, no repeats). */
  async storedDigests(projectId: string, digests: string[]): Promise<Set<string>> {
    const rows = await this.database.query<{ digest: string }>(`SELECT digest FROM site_blobs WHERE project_id = $1 AND digest = ANY($2::text[])`, [projectId, digests]);
    return new Set(rows.map((r) => r.digest));
  }

  async manifestOf(deploymentId: string): Promise<Record<string, string> | undefined> {
    const [row] = await this.database.query<{ files: Record<string, string> | string }>(`SELECT files FROM site_manifests WHERE deployment_id = $1`, [deploymentId]);
    if (!row) return undefined;
    // PGlite and pg differ in whether jsonb comes back parsed.
    return typeof row.files === 'string' ? (JSON.parse(row.files) as Record<string, string>) : row.files;
  }

  async saveManifest(deploymentId: string, files: Record<string, string>): Promise<void> {
    await this.database.query(`INSERT INTO site_manifests (deployment_id, files) VALUES ($1, $2::jsonb)`, [deploymentId, JSON.stringify(files)]);
  }

  /** Records a stored blob; a digest the project already has is left as it is. */
  async recordBlob(projectId: string, digest: string, size: number): Promise<void> {
    await this.database.query(`INSERT INTO site_blobs (project_id, digest, size) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [projectId, digest, size]);
  }

  /** The bytes of a manifest deployment: the sizes of the project's blobs its manifest lists. */
  async manifestBytes(projectId: string, deploymentId: string): Promise<number> {
    const [{ total }] = await this.database.query<{ total: string | null }>(
      `SELECT sum(b.size) AS total FROM jsonb_each_text((SELECT files FROM site_manifests WHERE deployment_id = $1)) m JOIN site_blobs b ON b.project_id = $2 AND b.digest = m.value`,
      [deploymentId, projectId],
    );
    return Number(total ?? 0);
  }

  /** Forgets the project's blobs no remaining deployment lists (an hour old at least); returns their digests. */
  async collectBlobs(projectId: string): Promise<string[]> {
    const rows = await this.database.query<{ digest: string }>(
      `DELETE FROM site_blobs b
        WHERE b.project_id = $1 AND b.created_at < now() - interval '1 hour'
          AND NOT EXISTS (SELECT 1 FROM site_manifests m JOIN site_deployments d ON d.id = m.deployment_id, jsonb_each_text(m.files) f
                           WHERE d.project_id = $1 AND f.value = b.digest)
        RETURNING digest`,
      [projectId],
    );
    return rows.map((r) => r.digest);
  }
}
