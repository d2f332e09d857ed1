// What the console shows of a project's site, read-only: its deployments, logs, process figures,
// traffic and errors, and an account's sites. Changes go through hosting.service.ts.
import type { Clock } from '../../platform/clock';
import { Errors } from '../../platform/errors';
import type { ProjectRow } from '../projects';
import { deploymentKind } from './deploy';
import { severityOf, type TrafficCounter } from './edge';
import type { HostingRepository } from './hosting.repository';
import type { DeploymentRow } from './hosting.tables';
import type { Runtime } from './runtime';

export interface HostingViewsDeps {
  repo: HostingRepository;
  runtime: Runtime;
  traffic: TrafficCounter;
  clock: Clock;
}

export class HostingViews {
  constructor(private readonly d: HostingViewsDeps) {}

  async history(project: ProjectRow) {
    const [rows, liveId] = await Promise.all([this.d.repo.listDeployments(project.id), this.d.repo.liveDeploymentId(project.id)]);
    return { deployments: rows.map((r) => deploymentView(r, liveId)), live_deployment_id: liveId };
  }

  async view(project: ProjectRow, row: DeploymentRow) {
    return deploymentView(row, await this.d.repo.liveDeploymentId(project.id));
  }

  async logs(project: ProjectRow, deploymentId: string) {
    const row = await this.d.repo.findDeployment(project.id, deploymentId);
    if (!row) throw Errors.notFound('Deployment');
    return { build_log: row.buildLog, runtime_log: await this.d.runtime.logs(row.id) };
  }

  /** The sites list of the owner's projects (newest first, as the projects module lists them). */
  async sites(owned: ProjectRow[], domainOf: (p: ProjectRow) => string, siteUrlOf: (p: ProjectRow) => string) {
    const rows = await this.d.repo.sitesOf(owned);
    return rows.map(({ project, live, latest }) => {
      const shown = latest?.status === 'building' ? latest : (live ?? latest);
      const status = latest?.status === 'building' ? 'building' : live ? 'live' : latest?.status === 'failed' ? 'failed' : latest ? 'unpublished' : 'none';
      return {
        project_id: project.id,
        project_name: project.name,
        domain: domainOf(project),
        site_url: siteUrlOf(project),
        status: status as 'live' | 'building' | 'failed' | 'unpublished' | 'none',
        type: shown?.type ?? null,
        deployment_id: shown?.id ?? null,
        updated_at: (shown?.finishedAt ?? shown?.createdAt)?.toISOString() ?? null,
      };
    });
  }

  async stats(project: ProjectRow) {
    const liveId = await this.d.repo.liveDeploymentId(project.id);
    const live = liveId ? await this.d.repo.findDeployment(project.id, liveId) : undefined;
    const [totals, proc] = await Promise.all([this.d.repo.totals(project.id), live && deploymentKind(live) ? this.d.runtime.stats(project.id) : undefined]);
    const pending = this.d.traffic.pending(project.id);
    const mb = (b: number) => Math.round((b / 1048576) * 1e6) / 1e6;
    return {
      cpu_percent: proc?.cpuPercent ?? 0,
      mem_percent: proc?.memPercent ?? 0,
      rx_mb: mb(totals.bytesIn + pending.bytesIn),
      tx_mb: mb(totals.bytesOut + pending.bytesOut),
      status: !live ? 'none' : deploymentKind(live) ? (proc?.status ?? 'stopped') : 'static',
      restarts: proc?.restarts ?? 0,
      last_exit: proc?.lastExit ?? null,
    };
  }

  async trafficReport(project: ProjectRow) {
    await this.d.traffic.flush();
    const now = this.d.clock.now().getTime();
    const firstHour = Math.floor(now / 3600_000) * 3600_000 - 23 * 3600_000;
    const [rows, errors, deployments] = await Promise.all([
      this.d.repo.trafficSince(project.id, new Date(firstHour)),
      this.d.repo.errorsOf(project.id),
      this.d.repo.listDeployments(project.id, 10),
    ]);
    const byHour = new Map(rows.map((r) => [r.hour.getTime(), r.requests]));
    const traffic = Array.from({ length: 24 }, (_, i) => {
      const h = firstHour + i * 3600_000;
      return { label: `${String(new Date(h).getUTCHours()).padStart(2, '0')}:00`, requests: Number(byHour.get(h) ?? 0) };
    });
    return {
      traffic,
      errors: errors.map((e) => ({ status: e.status, path: e.path, count: Number(e.count), severity: severityOf(e.status), last_seen: e.lastSeen.toISOString() })),
      activity: deployments.map((d) => ({ message: activityMessage(d), at: (d.finishedAt ?? d.createdAt).toISOString() })),
    };
  }
}

export function deploymentView(r: DeploymentRow, liveId: string | null) {
  const live = r.id === liveId;
  return {
    id: r.id,
    project_id: r.projectId,
    type: r.type as never,
    status: (r.status === 'live' && !live ? 'superseded' : r.status) as 'building' | 'live' | 'failed' | 'superseded',
    live,
    size_bytes: Number(r.sizeBytes),
    file_count: r.fileCount,
    root: r.root,
    error: r.error,
    framework: r.framework ?? null,
    created_at: r.createdAt.toISOString(),
  };
}

function activityMessage(d: DeploymentRow): string {
  const id = d.id.slice(0, 8);
  if (d.status === 'failed') return `Deployment ${id} (${d.type}) failed: ${d.error ?? 'unknown error'}`;
  if (d.status === 'building') return `Deployment ${id} (${d.type}) is building`;
  return `Deployment ${id} (${d.type}) went live with ${d.fileCount} files`;
}

