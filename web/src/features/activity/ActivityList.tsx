// A list of activity entries or project errors: what happened, where, and how long ago (the
// exact time on hover). Shared by the account's recent activity and the project dashboard.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../components/Icon';
import { formatDate } from '../../lib/format';
import { formatRelative } from '../../lib/relative-time';
import './activity.css';

export interface ListItem {
  id: string;
  icon: IconName;
  text: ReactNode;
  /** Shown before the time (a badge, a project link, an address). */
  meta?: ReactNode;
  at: string;
}

export function ActivityList({ items, label }: { items: ListItem[]; label: string }) {
  return (
    <ul className="activity-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="activity-item">
          <span className="activity-icon">
            <Icon name={item.icon} size={16} />
          </span>
          <span className="activity-body">
            <span className="activity-summary">{item.text}</span>
            <span className="activity-meta">
              {item.meta}
              <time dateTime={item.at} title={formatDate(item.at)}>
                {formatRelative(item.at)}
              </time>
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

export const PAGE_SIZE = 10;

/** Newer / Older for a paged list. */
export function Pager({ page, pageSize, nextPage, total, onPage }: { page: number; pageSize: number; nextPage: number | null; total: number; onPage: (page: number) => void }) {
  if (page === 1 && nextPage === null) return null;
  return (
    <div className="activity-pager">
      <button type="button" className="btn btn-secondary btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <Icon name="chevronLeft" size={14} /> Newer
      </button>
      <span>
        Page {page} of {Math.max(1, Math.ceil(total / pageSize))}
      </span>
      <button type="button" className="btn btn-secondary btn-sm" disabled={nextPage === null} onClick={() => nextPage !== null && onPage(nextPage)}>
        Older <Icon name="chevronRight" size={14} />
      </button>
    </div>
  );
}

export function ProjectLink({ id, name }: { id: string; name: string }) {
  return <Link to={`/project/${encodeURIComponent(id)}/dashboard`}>{name}</Link>;
}
