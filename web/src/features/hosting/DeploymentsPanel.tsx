import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListDeploymentsQueryKey, useActivateDeployment } from '../../api/generated/hosting/hosting';
import type { listDeployments } from '../../api/generated/hosting/hosting';
import type { Deployment } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { Empty, QueryView, type QueryLike } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate, formatSize } from '../../lib/format';
import { BuildLogModal } from './BuildLog';
import { LogsModal } from './LogsModal';
import { deploymentTone } from './siteStatus';

/** The project's deployments: their logs (a build still running followed live), and rolling back to an earlier one. */
export function DeploymentsPanel({ projectId, domain, siteUrl, deployments, onDeploy }: { projectId: string; domain: string; siteUrl?: string; deployments: QueryLike<Awaited<ReturnType<typeof listDeployments>>>; onDeploy: () => void }) {
  const toActivate = useConfirmTarget<Deployment>();
  const [logsFor, setLogsFor] = useState<Deployment | null>(null);
  const [following, setFollowing] = useState<Deployment | null>(null);
  const activate = useActivateDeployment(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const confirmActivate = () =>
    toActivate.confirm((deployment) =>
      activate.mutate(
        { projectId, deploymentId: deployment.id },
        toActivate.settle(async () => {
          toast.success('Deployment is live', formatDate(deployment.created_at));
          await queryClient.invalidateQueries({ queryKey: getListDeploymentsQueryKey(projectId) });
        }),
      ),
    );

  return (
    <section className="card panel" aria-labelledby="deploys-title">
      <h2 id="deploys-title" className="panel-title">Deployments</h2>
      <QueryView
        query={deployments}
        loading="Loading deployments..."
        errorTitle="Could not load deployments"
        isEmpty={(d) => d.deployments.length === 0}
        empty={
          <Empty
            icon="rocket"
            title="No deployments yet"
            action={
              <button type="button" className="btn btn-primary" onClick={onDeploy}>
                Deploy a site
              </button>
            }
          >
            Upload a zip of your site, built or as source code to build, to publish it at {domain}.
          </Empty>
        }
      >
        {(data) => (
          <DataTable caption="Deployments" columns={['Created', 'Type', 'Framework', 'Status', 'Size', 'Files']} actions>
            {data.deployments.map((d) => (
              <tr key={d.id}>
                <td data-label="Created">{formatDate(d.created_at)}</td>
                <td data-label="Type">{d.type}</td>
                <td data-label="Framework">{d.framework ?? <span className="muted">as uploaded</span>}</td>
                <td data-label="Status">
                  <Pill tone={deploymentTone[d.status] ?? 'gray'}>{d.live ? 'live' : d.status}</Pill>
                  {d.error && <span className="field-error"> {d.error}</span>}
                </td>
                <td data-label="Size">{formatSize(d.size_bytes)}</td>
                <td data-label="Files">{d.file_count}</td>
                <td className="col-actions">
                  <div className="row-actions">
                    {d.status === 'building' && (
                      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setFollowing(d)}>
                        Follow build
                      </button>
                    )}
                    <button type="button" className="btn btn-ghost btn-sm" onClick={() => setLogsFor(d)}>
                      Logs
                    </button>
                    {!d.live && d.status !== 'failed' && d.status !== 'building' && (
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        onClick={() => toActivate.open(d)}
                      >
                        {data.live_deployment_id ? 'Rollback' : 'Publish'}
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      <LogsModal projectId={projectId} deployment={logsFor} onClose={() => setLogsFor(null)} />
      <BuildLogModal build={following && { projectId, deploymentId: following.id, siteUrl }} onClose={() => setFollowing(null)} />
      <ConfirmDialog
        open={!!toActivate.target}
        title="Roll back"
        confirmLabel="Make live"
        busyLabel="Switching..."
        busy={activate.isPending}
        error={toActivate.error}
        message={<p>Serve the deployment from {toActivate.target ? formatDate(toActivate.target.created_at) : ''} at {domain}?</p>}
        onConfirm={confirmActivate}
        onCancel={toActivate.close}
      />
    </section>
  );
}
