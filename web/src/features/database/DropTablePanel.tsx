// Dropping the table, after typing its name (the server checks the typed name too).
import { useId } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useDropDbTable } from '../../api/generated/database/database';
import type { DbTable } from '../../api/generated/model';
import { inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toast';
import { rowsKey, tablesKey } from './db';
import { formatNumber } from '../../lib/format';

export function DropTablePanel({ projectId, table }: { projectId: string; table: DbTable }) {
  const toDrop = useConfirmTarget<DbTable>();
  const drop = useDropDbTable(inlineError);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const titleId = useId();

  const confirmDrop = () =>
    toDrop.confirm((t) =>
      drop.mutate(
        { projectId, data: { name: t.name, confirm: t.name } },
        toDrop.settle(async () => {
          toast.success('Table dropped', t.name);
          navigate('..', { relative: 'path' });
          queryClient.removeQueries({ queryKey: rowsKey(projectId, t.name) });
          await queryClient.invalidateQueries({ queryKey: tablesKey(projectId) });
        }),
      ),
    );

  return (
    <section className="card panel danger-zone" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel-title">
        Drop table
      </h2>
      <div className="form-row">
        <p className="muted settings-text">The table and all of its rows are deleted. Apps using it get 404 from then on.</p>
        <button type="button" className="btn btn-danger" onClick={() => toDrop.open(table)}>
          <Icon name="trash" size={16} /> Drop table
        </button>
      </div>
      <ConfirmDialog
        open={!!toDrop.target}
        title={`Drop ${table.name}`}
        danger
        requireText={table.name}
        confirmLabel="Drop table"
        busyLabel="Dropping..."
        busy={drop.isPending}
        error={toDrop.error}
        message={
          <p>
            Drop <strong className="mono">{table.name}</strong> and its {formatNumber(table.row_count)} rows? This cannot be undone.
          </p>
        }
        onConfirm={confirmDrop}
        onCancel={toDrop.close}
      />
    </section>
  );
}
