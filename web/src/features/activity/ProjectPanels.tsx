// The project dashboard's Activity and Errors panels: its owner's changes and what went wrong
// (failed deploys, crashes, DNS, quotas), newest first, a page at a time.
import { useState } from 'react';
import { useListProjectActivity, useListProjectErrors } from '../../api/generated/activity/activity';
import type { ProjectErrorSeverity } from '../../api/generated/model';
import { Pill } from '../../components/StatusBadge';
import { Empty, ErrorState, Loading } from '../../components/States';
import { ActivityList, PAGE_SIZE, Pager } from './ActivityList';

// Both lists grow as a side effect of other calls (and of crashes no call made): read again each
// time the dashboard opens, whatever the app-wide staleTime; errors also every half minute.
const FRESH = { refetchOnMount: 'always' } as const;
const ERRORS_POLL_MS = 30_000;

const SEVERITY_TONE: Record<ProjectErrorSeverity, 'red' | 'yellow' | 'gray'> = { high: 'red', medium: 'yellow', low: 'gray' };

export function ProjectActivityPanel({ projectId }: { projectId: string }) {
  const [page, setPage] = useState(1);
  const activity = useListProjectActivity(projectId, { page, page_size: PAGE_SIZE }, { query: FRESH });
  return (
    <section className="card panel">
      <h2 className="panel-title">Activity</h2>
      {activity.isPending ? (
        <Loading label="Loading activity..." />
      ) : activity.isError ? (
        <ErrorState title="Could not load the activity" error={activity.error} onRetry={() => void activity.refetch()} />
      ) : activity.data.entries.length === 0 ? (
        <Empty icon="clock" title="No activity yet" />
      ) : (
        <>
          <ActivityList
            label="Project activity"
            items={activity.data.entries.map((e) => ({ id: e.id, icon: 'clock', text: e.summary, meta: <span className="mono">{e.ip}</span>, at: e.created_at }))}
          />
          <Pager page={activity.data.page} pageSize={activity.data.page_size} nextPage={activity.data.next_page} total={activity.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}

export function ProjectErrorsPanel({ projectId }: { projectId: string }) {
  const [page, setPage] = useState(1);
  const errors = useListProjectErrors(projectId, { page, page_size: PAGE_SIZE }, { query: { ...FRESH, refetchInterval: ERRORS_POLL_MS } });
  return (
    <section className="card panel">
      <h2 className="panel-title">Errors</h2>
      {errors.isPending ? (
        <Loading label="Loading errors..." />
      ) : errors.isError ? (
        <ErrorState title="Could not load the errors" error={errors.error} onRetry={() => void errors.refetch()} />
      ) : errors.data.errors.length === 0 ? (
        <Empty icon="check" title="No errors">
          Failed deploys, crashes, mail DNS problems and reached quotas show up here.
        </Empty>
      ) : (
        <>
          <ActivityList
            label="Project errors"
            items={errors.data.errors.map((e) => ({ id: e.id, icon: 'alert', text: e.message, meta: <Pill tone={SEVERITY_TONE[e.severity]}>{e.severity}</Pill>, at: e.created_at }))}
          />
          <Pager page={errors.data.page} pageSize={errors.data.page_size} nextPage={errors.data.next_page} total={errors.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
