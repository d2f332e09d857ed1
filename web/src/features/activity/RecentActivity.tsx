// The account's latest changes, for /dashboard: each with its project's name (a link) where it
// has one, and how long ago.
import { useListAccountActivity } from '../../api/generated/activity/activity';
import { Empty, ErrorState, Loading } from '../../components/States';
import { ActivityList, ProjectLink } from './ActivityList';

export function RecentActivity({ limit = 8 }: { limit?: number }) {
  const activity = useListAccountActivity({ page: 1, page_size: limit }, { query: { refetchOnMount: 'always' } });
  return (
    <section className="card panel">
      <h2 className="panel-title">Recent activity</h2>
      {activity.isPending ? (
        <Loading label="Loading activity..." />
      ) : activity.isError ? (
        <ErrorState title="Could not load the activity" error={activity.error} onRetry={() => void activity.refetch()} />
      ) : activity.data.entries.length === 0 ? (
        <Empty icon="clock" title="No activity yet">
          What you change in your projects shows up here.
        </Empty>
      ) : (
        <ActivityList
          label="Recent activity"
          items={activity.data.entries.map((e) => ({
            id: e.id,
            icon: 'clock',
            text: e.summary,
            meta: e.project_id && e.project_name ? <ProjectLink id={e.project_id} name={e.project_name} /> : undefined,
            at: e.created_at,
          }))}
        />
      )}
    </section>
  );
}

export default RecentActivity;
