// A scrollable table with a caption for assistive technology and one header row; the rows are the children.
import type { ReactNode } from 'react';
import { Icon } from './Icon';

export function DataTable({ caption, columns, actions = false, children }: { caption: string; columns: string[]; actions?: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions && (
              <th scope="col" className="col-actions">
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The foot of a paged table: what is shown, then Previous, the page, Next. */
export function Pager({
  summary,
  announce = false,
  page,
  onPrevious,
  onNext,
  previousDisabled,
  nextDisabled,
}: {
  summary: ReactNode;
  /** Read the summary out when it changes. */
  announce?: boolean;
  page: ReactNode;
  onPrevious: () => void;
  onNext: () => void;
  previousDisabled: boolean;
  nextDisabled: boolean;
}) {
  return (
    <div className="table-foot">
      <span className="muted" role={announce ? 'status' : undefined}>
        {summary}
      </span>
      <div className="pager">
        <button type="button" className="btn btn-secondary btn-sm" onClick={onPrevious} disabled={previousDisabled}>
          <Icon name="chevronLeft" size={16} /> Previous
        </button>
        <span className="pager-page">{page}</span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onNext} disabled={nextDisabled}>
          Next <Icon name="chevronRight" size={16} />
        </button>
      </div>
    </div>
  );
}
