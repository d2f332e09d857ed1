// A build followed live: its log as it comes (kept scrolled to the newest line unless the reader
// scrolled up), then "Live" or why it failed. Shown after a deploy that answered 202 and by
// "Follow build" in the deployments list.
import { useLayoutEffect, useRef } from 'react';
import { FormError } from '../../components/FormError';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { useBuildLog } from './useBuildLog';

export function BuildLogView({ projectId, deploymentId, message, siteUrl }: { projectId: string; deploymentId: string; message?: string; siteUrl?: string }) {
  const log = useBuildLog(projectId, deploymentId);
  const pre = useRef<HTMLPreElement>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const el = pre.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [log.text]);

  return (
    <div className="build-log">
      {message && <p className="muted">{message}</p>}
      <pre
        ref={pre}
        className="log-box"
        role="log"
        aria-live="polite"
        aria-label="Build log"
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
        }}
      >
        {log.text || 'Waiting for the build to start...'}
      </pre>
      {log.phase === 'building' && !log.lost && (
        <p className="inline-flex" role="status">
          <Spinner size={14} /> Building...
        </p>
      )}
      {log.phase === 'live' && (
        <p className="inline-flex" role="status">
          <Pill tone="green">Live</Pill> The site now serves this build.
          {siteUrl && (
            <a href={siteUrl} target="_blank" rel="noreferrer">
              Visit {siteUrl}
            </a>
          )}
        </p>
      )}
      {log.phase === 'failed' && (
        <>
          <FormError message={log.error} />
          <p className="muted">The live site stays as it was.</p>
        </>
      )}
      {log.phase === 'building' && log.lost && (
        <div className="inline-flex">
          <FormError message={log.lost} />
          <button type="button" className="btn btn-secondary btn-sm" onClick={log.reconnect}>
            Reconnect
          </button>
        </div>
      )}
    </div>
  );
}

export interface FollowedBuild {
  projectId: string;
  deploymentId: string;
  /** The deploy's answer ("Build started: Detected Vite (…)"). */
  message?: string;
  /** Where the site is served (the deploy's answer): linked once the build is live. */
  siteUrl?: string;
}

export function BuildLogModal({ build, onClose }: { build: FollowedBuild | null; onClose: () => void }) {
  return (
    <Modal open={!!build} onClose={onClose} title="Build" size="lg">
      {build && <BuildLogView key={build.deploymentId} projectId={build.projectId} deploymentId={build.deploymentId} message={build.message} siteUrl={build.siteUrl} />}
    </Modal>
  );
}
