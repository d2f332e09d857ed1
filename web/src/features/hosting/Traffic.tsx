import { useGetSiteTraffic } from '../../api/generated/hosting/hosting';
import { Empty, ErrorState, Loading } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { formatDate } from '../../lib/format';

/** Requests over time, errors by path, and recent activity of the project's site. */
export function Traffic({ projectId }: { projectId: string }) {
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
