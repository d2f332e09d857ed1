// Follows one deployment's build as it runs (streamDeploymentLog, Server-Sent Events): the log as
// it grows, then live or failed. When the build ends the lists that show its deployment are
// refetched, so the page behind the log shows the new state without a reload.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getGetDeploymentLogsQueryKey, getListDeploymentsQueryKey, getListSitesQueryKey, getStreamDeploymentLogUrl } from '../../api/generated/hosting/hosting';
import { errorMessage, readEventStream } from '../../api/http';

export type BuildPhase = 'building' | 'live' | 'failed';

export interface BuildLogState {
  text: string;
  phase: BuildPhase;
  /** Why the build failed, as the server words it. */
  error: string | null;
  /** Why the console stopped hearing from the build (the stream broke or was refused). */
  lost: string | null;
}

const START: BuildLogState = { text: '', phase: 'building', error: null, lost: null };
export const STREAM_CLOSED = 'The connection to the build log closed before the build ended.';
export const BUILD_FAILED = 'The build failed.';

function json(data: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(data);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function useBuildLog(projectId: string, deploymentId: string | null) {
  const [state, setState] = useState<BuildLogState>(START);
  const [attempt, setAttempt] = useState(0);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!deploymentId) return;
    const abort = new AbortController();
    let ended = false;
    // Every connection replays the log from its first line.
    setState(START);
    readEventStream(
      getStreamDeploymentLogUrl(projectId, deploymentId),
      (e) => {
        const data = json(e.data);
        if (e.event === 'log' && typeof data.text === 'string') {
          const text = data.text;
          setState((s) => ({ ...s, text: s.text + text }));
        } else if (e.event === 'end') {
          ended = true;
          const live = data.status === 'live';
          const error = live ? null : typeof data.error === 'string' && data.error ? data.error : BUILD_FAILED;
          setState((s) => ({ ...s, phase: live ? 'live' : 'failed', error }));
          void Promise.all([
            queryClient.invalidateQueries({ queryKey: getListDeploymentsQueryKey(projectId) }),
            queryClient.invalidateQueries({ queryKey: getListSitesQueryKey() }),
            queryClient.invalidateQueries({ queryKey: getGetDeploymentLogsQueryKey(projectId, deploymentId) }),
          ]);
        }
      },
      abort.signal,
    ).then(
      () => {
        if (!ended) setState((s) => ({ ...s, lost: STREAM_CLOSED }));
      },
      (err: unknown) => {
        if (!abort.signal.aborted) setState((s) => ({ ...s, lost: errorMessage(err) }));
      },
    );
    return () => abort.abort();
  }, [projectId, deploymentId, attempt, queryClient]);

  return { ...state, reconnect: () => setAttempt((n) => n + 1) };
}
