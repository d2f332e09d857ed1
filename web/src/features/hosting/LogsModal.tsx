import { useGetDeploymentLogs } from '../../api/generated/hosting/hosting';
import type { Deployment } from '../../api/generated/model';
import { Modal } from '../../components/Modal';
import { QueryView } from '../../components/States';

export function LogsModal({ projectId, deployment, onClose }: { projectId: string; deployment: Deployment | null; onClose: () => void }) {
  const logs = useGetDeploymentLogs(projectId, deployment?.id ?? '', { query: { enabled: !!deployment } });
  return (
    <Modal open={!!deployment} onClose={onClose} title="Deployment logs" size="lg">
      <QueryView query={logs} loading="Loading logs..." errorTitle="Could not load logs">
        {(data) => (
          <div className="logs">
            <h3>Build log</h3>
            <pre className="log-box">{data.build_log || 'No build output.'}</pre>
            <h3>Runtime log</h3>
            <pre className="log-box">{data.runtime_log || 'No runtime output.'}</pre>
          </div>
        )}
      </QueryView>
    </Modal>
  );
}
