import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  useActivateDeployment,
  useGetContainerStats,
  useGetDeploymentLogs,
  useGetSiteTraffic,
  useListDeployments,
} from '../../api/generated/hosting/hosting';
import type { Deployment, ProjectType } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { PageHeader } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { Empty, ErrorState, Loading } from '../../components/States';
import { Pill, StatusBadge } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate, formatSize } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { DEPLOY_MESSAGES, isZip, useZipDeploy } from './useZipDeploy';
import { ZipPicker } from './ZipPicker';

export const PROJECT_TYPES: ProjectType[] = ['Node', 'PHP', 'React', 'Vite', 'Angular', 'Flask'];
export const STATS_POLL_MS = 5000;

const deploymentTone = { live: 'green', building: 'yellow', failed: 'red', superseded: 'gray' } as const;

/** Site state -> the status badge values of SPEC section 3. */
export function badgeStatus(liveStatus: string | undefined): string {
  switch (liveStatus) {
    case 'live':
      return 'active';
    case 'building':
      return 'maintenance';
    case 'failed':
      return 'error';
    case 'none':
    case undefined:
      return 'inactive';
    default:
      return liveStatus;
  }
}

function ManageModal({ open, onClose, projectId, domain }: { open: boolean; onClose: () => void; projectId: string; domain: string }) {
  const [type, setType] = useState<ProjectType | ''>('');
  const [file, setFile] = useState<File | null>(null);
  const { deploy, progress, busy, error, setError } = useZipDeploy();
  const queryClient = useQueryClient();

  function close() {
    if (busy) return;
    setType('');
    setFile(null);
    setError(null);
    onClose();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!type) return setError(DEPLOY_MESSAGES.needType);
    if (!file || !isZip(file)) return setError(DEPLOY_MESSAGES.needZip);
    const res = await deploy({ projectId, domain, type, file });
    await queryClient.invalidateQueries({ queryKey: [`/project/${projectId}/deployments`] });
    if (res) {
      await queryClient.invalidateQueries({ queryKey: ['/hosting/sites'] });
      setType('');
      setFile(null);
      onClose();
    }
  }

  return (
    <Modal
      open={open}
      onClose={close}
      busy={busy}
      title="Add New Project"
      size="lg"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form="manage-form" className="btn btn-primary" disabled={busy}>
            {busy ? 'Deploying...' : 'Deploy'}
          </button>
        </>
      }
    >
      <form id="manage-form" className="form" onSubmit={onSubmit}>
        <fieldset className="type-grid">
          <legend>Project type</legend>
          {PROJECT_TYPES.map((t) => (
            <label key={t} className={`type-option${type === t ? ' is-checked' : ''}`}>
              <input type="radio" name="type" value={t} checked={type === t} onChange={() => setType(t)} disabled={busy} />
              <span>{t}</span>
            </label>
          ))}
        </fieldset>
        <ZipPicker
          file={file}
          onFile={(f) => {
            setError(null);
            if (f && !isZip(f)) setError(DEPLOY_MESSAGES.needZip);
            else setFile(f);
          }}
          disabled={busy}
        />
        {progress !== null && <ProgressBar value={progress} label="Uploading the archive" />}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

function ServerStatus({ projectId, domain, enabled }: { projectId: string; domain: string; enabled: boolean }) {
  const stats = useGetContainerStats(projectId, { domain }, { query: { enabled, refetchInterval: STATS_POLL_MS, retry: false } });
  if (!enabled) return <Empty icon="server" title="No live deployment">Deploy a site to see its server status.</Empty>;
  if (stats.isPending) return <Loading label="Loading server status..." />;
  if (stats.isError) return <ErrorState title="Server status unavailable" error={stats.error} onRetry={() => stats.refetch()} />;
  const s = stats.data;
  const netMax = Math.max(s.rx_mb, s.tx_mb, 1);
  const bars = [
    { label: 'CPU Usage', value: s.cpu_percent, text: `${s.cpu_percent.toFixed(1)}%` },
    { label: 'Memory', value: s.mem_percent, text: `${s.mem_percent.toFixed(1)}%` },
    { label: 'Network Received', value: (s.rx_mb / netMax) * 100, text: `${s.rx_mb.toFixed(2)} MB` },
    { label: 'Network Transmitted', value: (s.tx_mb / netMax) * 100, text: `${s.tx_mb.toFixed(2)} MB` },
  ];
  return (
    <ul className="meter-list">
      {bars.map((b) => (
        <li key={b.label}>
          <div className="meter-head">
            <span>{b.label}</span>
            <span className="mono">{b.text}</span>
          </div>
          <ProgressBar value={b.value} label={b.label} showValue={false} tone={b.value > 85 && !b.label.startsWith('Network') ? 'danger' : 'primary'} />
        </li>
      ))}
      {s.status && <li className="muted">Process: {s.status}</li>}
      {s.last_exit && (
        <li className="muted" role="status">
          Last stopped: {s.last_exit}
          {s.restarts ? ` (${s.restarts} restart${s.restarts === 1 ? '' : 's'} recently)` : ''}
        </li>
      )}
    </ul>
  );
}

function Traffic({ projectId }: { projectId: string }) {
  const traffic = useGetSiteTraffic(projectId, { query: { refetchInterval: 30_000 } });
  if (traffic.isPending) return <Loading label="Loading traffic..." />;
  if (traffic.isError) return <ErrorState title="Could not load traffic" error={traffic.error} onRetry={() => traffic.refetch()} />;
  const { traffic: series, errors, activity } = traffic.data;
  const max = Math.max(1, ...series.map((t) => t.requests));
  const total = series.reduce((a, t) => a + t.requests, 0);
  // Label about eight bars at most, so long series stay readable.
  const labelEvery = Math.max(1, Math.ceil(series.length / 8));
  return (
    <div className="hosting-grid">
      <section className="card panel" aria-labelledby="traffic-title">
        <h2 id="traffic-title" className="panel-title">Traffic</h2>
        {series.length === 0 || total === 0 ? (
          <Empty icon="chart" title="No requests yet">Requests to your site show up here.</Empty>
        ) : (
          <ul className="bar-chart" aria-label="Requests">
            {series.map((t, i) => (
              <li key={`${t.label}-${i}`} className="bar-col" title={`${t.label}: ${t.requests} requests`}>
                <span className="bar" style={{ height: `${Math.max(2, (t.requests / max) * 100)}%` }} />
                <span className="bar-label" aria-hidden="true">
                  {i % labelEvery === 0 ? t.label : ''}
                </span>
                <span className="visually-hidden">{t.label}:</span>
                <span className="visually-hidden">{t.requests} requests</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card panel" aria-labelledby="errors-title">
        <h2 id="errors-title" className="panel-title">Errors</h2>
        {errors.length === 0 ? (
          <Empty icon="check" title="No errors" />
        ) : (
          <ul className="error-list">
            {errors.map((e, i) => (
              <li key={`${e.status}-${e.path}-${i}`}>
                <Pill tone={e.severity === 'high' ? 'red' : e.severity === 'medium' ? 'yellow' : 'gray'}>{e.severity}</Pill>
                <span className="mono">{e.status}</span>
                <span className="error-path mono" title={e.path}>{e.path ?? ''}</span>
                <span className="muted">×{e.count}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card panel" aria-labelledby="activity-title">
        <h2 id="activity-title" className="panel-title">Recent Activities</h2>
        {activity.length === 0 ? (
          <Empty icon="clock" title="No activity yet" />
        ) : (
          <ul className="activity-list">
            {activity.map((a, i) => (
              <li key={i}>
                <span>{a.message}</span>
                <time className="muted" dateTime={a.at}>{formatDate(a.at)}</time>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function LogsModal({ projectId, deployment, onClose }: { projectId: string; deployment: Deployment | null; onClose: () => void }) {
  const logs = useGetDeploymentLogs(projectId, deployment?.id ?? '', { query: { enabled: !!deployment } });
  return (
    <Modal open={!!deployment} onClose={onClose} title="Deployment logs" size="lg">
      {logs.isPending ? (
        <Loading label="Loading logs..." />
      ) : logs.isError ? (
        <ErrorState title="Could not load logs" error={logs.error} onRetry={() => logs.refetch()} />
      ) : (
        <div className="logs">
          <h3>Build log</h3>
          <pre className="log-box">{logs.data.build_log || 'No build output.'}</pre>
          <h3>Runtime log</h3>
          <pre className="log-box">{logs.data.runtime_log || 'No runtime output.'}</pre>
        </div>
      )}
    </Modal>
  );
}

export default function ProjectHostingPage() {
  usePageTitle('Hosting');
  const { projectId, project } = useProject();
  const deployments = useListDeployments(projectId);
  const [managing, setManaging] = useState(false);
  const [toActivate, setToActivate] = useState<Deployment | null>(null);
  const [activateError, setActivateError] = useState<string | null>(null);
  const [logsFor, setLogsFor] = useState<Deployment | null>(null);
  const activate = useActivateDeployment();
  const queryClient = useQueryClient();
  const toast = useToast();

  const live = deployments.data?.deployments.find((d) => d.live);
  const siteStatus = deployments.data ? (live ? live.status : deployments.data.deployments[0]?.status === 'building' ? 'building' : 'none') : undefined;

  function confirmActivate() {
    if (!toActivate) return;
    setActivateError(null);
    activate.mutate(
      { projectId, deploymentId: toActivate.id },
      {
        onSuccess: async () => {
          toast.success('Deployment is live', formatDate(toActivate.created_at));
          setToActivate(null);
          await queryClient.invalidateQueries({ queryKey: [`/project/${projectId}/deployments`] });
        },
        onError: (err) => setActivateError(errorMessage(err)),
      },
    );
  }

  return (
    <div className="console-page">
      <PageHeader
        title={project.domain}
        description={
          <span className="inline-flex">
            Status: <StatusBadge status={badgeStatus(siteStatus)} />
            <a href={`https://${project.domain}`} target="_blank" rel="noreferrer" className="inline-flex">
              Visit site <Icon name="external" size={14} />
            </a>
          </span>
        }
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setManaging(true)}>
            <Icon name="upload" size={16} /> Manage
          </button>
        }
      />

      <section className="card panel" aria-labelledby="server-title">
        <h2 id="server-title" className="panel-title">Server Status</h2>
        <ServerStatus projectId={projectId} domain={project.domain} enabled={!!live} />
      </section>

      <Traffic projectId={projectId} />

      <section className="card panel" aria-labelledby="deploys-title">
        <h2 id="deploys-title" className="panel-title">Deployments</h2>
        {deployments.isPending ? (
          <Loading label="Loading deployments..." />
        ) : deployments.isError ? (
          <ErrorState title="Could not load deployments" error={deployments.error} onRetry={() => deployments.refetch()} />
        ) : deployments.data.deployments.length === 0 ? (
          <Empty
            icon="rocket"
            title="No deployments yet"
            action={
              <button type="button" className="btn btn-primary" onClick={() => setManaging(true)}>
                Deploy a site
              </button>
            }
          >
            Upload a zip of your built site to publish it at {project.domain}.
          </Empty>
        ) : (
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">Deployments</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col">Size</th>
                  <th scope="col">Files</th>
                  <th scope="col" className="col-actions">Actions</th>
                </tr>
              </thead>
              <tbody>
                {deployments.data.deployments.map((d) => (
                  <tr key={d.id}>
                    <td data-label="Created">{formatDate(d.created_at)}</td>
                    <td data-label="Type">{d.type}</td>
                    <td data-label="Status">
                      <Pill tone={deploymentTone[d.status] ?? 'gray'}>{d.live ? 'live' : d.status}</Pill>
                      {d.error && <span className="field-error"> {d.error}</span>}
                    </td>
                    <td data-label="Size">{formatSize(d.size_bytes)}</td>
                    <td data-label="Files">{d.file_count}</td>
                    <td className="col-actions">
                      <div className="row-actions">
                        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setLogsFor(d)}>
                          Logs
                        </button>
                        {!d.live && d.status !== 'failed' && d.status !== 'building' && (
                          <button
                            type="button"
                            className="btn btn-secondary btn-sm"
                            onClick={() => {
                              setActivateError(null);
                              setToActivate(d);
                            }}
                          >
                            Rollback
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <ManageModal open={managing} onClose={() => setManaging(false)} projectId={projectId} domain={project.domain} />
      <LogsModal projectId={projectId} deployment={logsFor} onClose={() => setLogsFor(null)} />
      <ConfirmDialog
        open={!!toActivate}
        title="Roll back"
        confirmLabel="Make live"
        busyLabel="Switching..."
        busy={activate.isPending}
        error={activateError}
        message={<p>Serve the deployment from {toActivate ? formatDate(toActivate.created_at) : ''} at {project.domain}?</p>}
        onConfirm={confirmActivate}
        onCancel={() => setToActivate(null)}
      />
    </div>
  );
}
