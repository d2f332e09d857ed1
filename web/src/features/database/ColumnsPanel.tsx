// The table's columns: each with its type and badges, rename and drop; Add Column below.
import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useDropDbColumn } from '../../api/generated/database/database';
import type { DbColumn, DbTable } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { IconButton } from '../../components/IconButton';
import { useToast } from '../../components/Toast';
import { AddColumnModal } from './AddColumnModal';
import { ColumnLine } from './ColumnBadges';
import { RenameColumnModal } from './RenameColumnModal';
import { rowsKey, tablesKey } from './db';

export function ColumnsPanel({ projectId, table, tables }: { projectId: string; table: DbTable; tables: DbTable[] }) {
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<DbColumn | null>(null);
  const toDrop = useConfirmTarget<DbColumn>();
  const drop = useDropDbColumn(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const titleId = useId();

  const confirmDrop = () =>
    toDrop.confirm((column) =>
      drop.mutate(
        { projectId, data: { table: table.name, column: column.name } },
        toDrop.settle(async () => {
          toast.success('Column dropped', `${table.name}.${column.name}`);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: tablesKey(projectId) }),
            queryClient.invalidateQueries({ queryKey: rowsKey(projectId, table.name) }),
          ]);
        }),
      ),
    );

  return (
    <section className="card panel" aria-labelledby={titleId}>
      <div className="panel-head">
        <h2 id={titleId} className="panel-title">
          Columns
        </h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAdding(true)}>
          <Icon name="plus" size={16} /> Add Column
        </button>
      </div>
      <ul className="column-rows">
        {table.columns.map((c) => (
          <li key={c.name}>
            <span className="column-row-main">
              <ColumnLine column={c} />
              {c.default && <span className="muted column-default">default {c.default}</span>}
            </span>
            <span className="row-actions">
              <IconButton icon="edit" label={`Rename column ${c.name}`} title="Rename" onClick={() => setRenaming(c)} />
              <IconButton icon="trash" danger label={`Drop column ${c.name}`} title="Drop" onClick={() => toDrop.open(c)} />
            </span>
          </li>
        ))}
      </ul>
      <AddColumnModal open={adding} onClose={() => setAdding(false)} projectId={projectId} table={table} tables={tables} />
      <RenameColumnModal column={renaming} onClose={() => setRenaming(null)} projectId={projectId} table={table} />
      <ConfirmDialog
        open={!!toDrop.target}
        title="Drop column"
        danger
        confirmLabel="Drop column"
        busyLabel="Dropping..."
        busy={drop.isPending}
        error={toDrop.error}
        message={
          <p>
            Drop <strong className="mono">{toDrop.target?.name}</strong> from <strong className="mono">{table.name}</strong>? Its values in every
            row are lost. This cannot be undone.
          </p>
        }
        onConfirm={confirmDrop}
        onCancel={toDrop.close}
      />
    </section>
  );
}
