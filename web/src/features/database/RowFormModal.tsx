// Add a row, or edit one (by its primary key): one typed input per column. Adding, an empty input
// leaves the column out (it takes its default, or NULL); editing, only the columns changed are sent.
// NULL is its own checkbox, so an empty text and NULL stay different values.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useConsoleInsertDbRows, useConsoleUpdateDbRows } from '../../api/generated/database/database';
import type { DbColumn, DbTable } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { FormError } from '../../components/FormError';
import { FormModal } from '../../components/FormModal';
import { useToast } from '../../components/Toast';
import { ValueField, type FieldValue } from './ValueField';
import { inputText, parseInput, primaryKeyFilters, rowsKey, tablesKey } from './db';

type Row = Record<string, unknown>;

function initialValues(columns: DbColumn[], row: Row | null): Record<string, FieldValue> {
  return Object.fromEntries(
    columns.map((c) => [c.name, row ? { text: inputText(row[c.name], c.type), isNull: row[c.name] === null } : { text: '', isNull: false }]),
  );
}

/** The values to send (column → typed value), or the problems per column. */
function collect(columns: DbColumn[], values: Record<string, FieldValue>, original: Record<string, FieldValue> | null) {
  const out: Row = {};
  const problems: Record<string, string> = {};
  for (const c of columns) {
    const v = values[c.name];
    if (original) {
      const was = original[c.name];
      if (v.isNull === was.isNull && (v.isNull || v.text === was.text)) continue;
    } else if (!v.isNull && v.text === '') continue;
    if (v.isNull) {
      out[c.name] = null;
      continue;
    }
    const parsed = parseInput(v.text, c.type);
    if (parsed.ok) out[c.name] = parsed.value;
    else problems[c.name] = parsed.error;
  }
  return { out, problems };
}

export function RowFormModal({
  projectId,
  table,
  row,
  onClose,
}: {
  projectId: string;
  table: DbTable;
  /** The row being edited; null to add one. */
  row: Row | null;
  onClose: () => void;
}) {
  const [original] = useState(() => (row ? initialValues(table.columns, row) : null));
  const [values, setValues] = useState(() => initialValues(table.columns, row));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const insert = useConsoleInsertDbRows(inlineError);
  const update = useConsoleUpdateDbRows(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const busy = insert.isPending || update.isPending;

  const done = async (title: string) => {
    toast.success(title, table.name);
    onClose();
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: rowsKey(projectId, table.name) }),
      queryClient.invalidateQueries({ queryKey: tablesKey(projectId) }),
    ]);
  };

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const { out, problems: found } = collect(table.columns, values, original);
    setProblems(found);
    if (Object.keys(found).length) return;
    const callbacks = { onError: (err: unknown) => setError(errorMessage(err)) };
    if (!row) {
      insert.mutate({ projectId, table: table.name, data: { rows: [out] } }, { ...callbacks, onSuccess: () => done('Row added') });
      return;
    }
    const filters = primaryKeyFilters(table, row);
    if (!filters) return setError('This table has no primary key: edit its rows with SQL from your app.');
    if (Object.keys(out).length === 0) return onClose();
    update.mutate({ projectId, table: table.name, data: { filters, values: out } }, { ...callbacks, onSuccess: () => done('Row updated') });
  }

  return (
    <FormModal
      open
      onClose={onClose}
      title={row ? `Edit row of ${table.name}` : `Add row to ${table.name}`}
      size="lg"
      formId="row-form"
      formClassName="form row-form"
      onSubmit={onSubmit}
      busy={busy}
      submitLabel={row ? 'Save row' : 'Add row'}
      busyLabel="Saving..."
    >
      {!row && <p className="field-hint">Leave a field empty for its default (or NULL).</p>}
      {table.columns.map((c) => (
        <ValueField
          key={c.name}
          column={c}
          value={values[c.name]}
          adding={!row}
          error={problems[c.name]}
          onChange={(v) => {
            setValues({ ...values, [c.name]: v });
            if (problems[c.name]) setProblems({ ...problems, [c.name]: '' });
          }}
        />
      ))}
      <FormError message={error} />
    </FormModal>
  );
}
