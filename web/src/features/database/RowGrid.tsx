// The table's rows, 100 a page, as the project owner (access rules don't apply here): a column's
// header sorts by it (ascending, then descending); each row can be edited or deleted by its primary
// key; Add row opens the same form empty.
import { useId, useState } from 'react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useConsoleDeleteDbRows, useConsoleSelectDbRows } from '../../api/generated/database/database';
import type { DbSelectOrderItem, DbTable } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { Pager } from '../../components/DataTable';
import { Icon } from '../../components/Icon';
import { IconButton } from '../../components/IconButton';
import { Empty, QueryView } from '../../components/States';
import { useToast } from '../../components/Toast';
import { RowFormModal } from './RowFormModal';
import { ROWS_PAGE_SIZE, cellText, primaryKeyFilters, rowKey, rowsKey, showingRows, tablesKey } from './db';

type Row = Record<string, unknown>;

/** The label of a row for assistive technology and dialogs: its primary key values. */
function rowLabel(table: DbTable, row: Row): string {
  return table.primary_key.length ? table.primary_key.map((c) => `${c} ${cellText(row[c])}`).join(', ') : 'this row';
}

export function RowGrid({ projectId, table }: { projectId: string; table: DbTable }) {
  const [page, setPage] = useState(1);
  const [chosenOrder, setOrder] = useState<DbSelectOrderItem | null>(null);
  // A column renamed or dropped since it was chosen no longer sorts.
  const order = chosenOrder && table.columns.some((c) => c.name === chosenOrder.column) ? chosenOrder : null;
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const toDelete = useConfirmTarget<Row>();
  const rows = useConsoleSelectDbRows(
    projectId,
    table.name,
    { page, count: true, ...(order ? { order: [order] } : {}) },
    { query: { placeholderData: keepPreviousData } },
  );
  const del = useConsoleDeleteDbRows(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const titleId = useId();
  const editable = table.primary_key.length > 0;

  function sortBy(column: string) {
    setOrder((o) => (o?.column !== column ? { column, ascending: true } : o.ascending ? { column, ascending: false } : null));
    setPage(1);
  }

  const confirmDelete = () =>
    toDelete.confirm((row) => {
      const filters = primaryKeyFilters(table, row);
      if (!filters) return;
      del.mutate(
        { projectId, table: table.name, data: { filters } },
        toDelete.settle(async () => {
          toast.success('Row deleted', table.name);
          if (rows.data?.rows.length === 1 && page > 1) setPage(page - 1);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: rowsKey(projectId, table.name) }),
            queryClient.invalidateQueries({ queryKey: tablesKey(projectId) }),
          ]);
        }),
      );
    });

  return (
    <section className="card table-card row-grid" aria-labelledby={titleId}>
      <div className="panel-head row-grid-head">
        <h2 id={titleId} className="panel-title">
          Rows
        </h2>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing('new')}>
          <Icon name="plus" size={16} /> Add row
        </button>
      </div>
      {!editable && <p className="warning-note">This table has no primary key: its rows can be added here, not edited or deleted.</p>}
      <QueryView
        query={rows}
        loading="Loading rows..."
        errorTitle="Could not load the rows"
        isEmpty={(d) => d.rows.length === 0 && page === 1}
        empty={<Empty icon="database" title="No rows yet">Add one here, or insert rows from your app.</Empty>}
      >
        {(data) => (
          <>
            <div className="table-scroll">
              <table className="table data-grid">
                <caption className="visually-hidden">Rows of {table.name}</caption>
                <thead>
                  <tr>
                    {table.columns.map((c) => {
                      const sorted = order?.column === c.name ? (order.ascending ? 'ascending' : 'descending') : undefined;
                      return (
                        <th key={c.name} scope="col" aria-sort={sorted ?? 'none'}>
                          <button type="button" className="sort-btn" onClick={() => sortBy(c.name)} title={`Sort by ${c.name}`}>
                            <span className="mono">{c.name}</span>
                            <span aria-hidden="true" className="sort-mark">
                              {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}
                            </span>
                          </button>
                        </th>
                      );
                    })}
                    {editable && (
                      <th scope="col" className="col-actions">
                        Actions
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row, i) => (
                    <tr key={rowKey(table, row, i)}>
                      {table.columns.map((c) => (
                        <td key={c.name} data-label={c.name} className={row[c.name] === null ? 'cell cell-null' : 'cell'} title={cellText(row[c.name])}>
                          {cellText(row[c.name])}
                        </td>
                      ))}
                      {editable && (
                        <td className="col-actions">
                          <div className="row-actions">
                            <IconButton icon="edit" label={`Edit row ${rowLabel(table, row)}`} title="Edit" onClick={() => setEditing(row)} />
                            <IconButton icon="trash" danger label={`Delete row ${rowLabel(table, row)}`} title="Delete" onClick={() => toDelete.open(row)} />
                          </div>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              summary={showingRows(data.page, data.rows.length, data.total)}
              announce
              page={data.total === undefined ? <>Page {page}</> : <>Page {page} of {Math.max(1, Math.ceil(data.total / ROWS_PAGE_SIZE))}</>}
              onPrevious={() => setPage((p) => Math.max(1, p - 1))}
              onNext={() => setPage((p) => data.next_page ?? p + 1)}
              previousDisabled={page <= 1 || rows.isFetching}
              nextDisabled={data.next_page === null || rows.isFetching}
            />
          </>
        )}
      </QueryView>
      {editing && <RowFormModal projectId={projectId} table={table} row={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={!!toDelete.target}
        title="Delete row"
        danger
        confirmLabel="Delete row"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={toDelete.error}
        message={<p>Delete {toDelete.target ? rowLabel(table, toDelete.target) : ''} from <strong className="mono">{table.name}</strong>? This cannot be undone.</p>}
        onConfirm={confirmDelete}
        onCancel={toDelete.close}
      />
    </section>
  );
}
