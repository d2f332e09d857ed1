// Create Table: a name, typed columns and the app access rule. Names are checked here with the
// server's rule; anything else the server refuses (a taken name, a default the type can't hold, a
// foreign key to a column that isn't unique) comes back as its message under the form.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useCreateDbTable } from '../../api/generated/database/database';
import { DbAccess, type DbTable } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { SelectField, TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { FormModal } from '../../components/FormModal';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toast';
import { ColumnFields, columnSpec, emptyColumn, type ColumnDraft } from './ColumnFields';
import { ACCESS_RULES, nameProblem, referenceTargets, tablesKey } from './db';

const MAX_COLUMNS = 100;

/** Per-column name problems (blank, bad or repeated names), or null when every name is fine. */
function columnProblems(columns: ColumnDraft[]): (string | null)[] | null {
  const seen = new Set<string>();
  const problems = columns.map((c) => {
    const name = c.name.trim();
    const bad = nameProblem(name, 'Column name');
    if (bad) return bad;
    if (seen.has(name)) return 'Two columns have this name';
    seen.add(name);
    return null;
  });
  return problems.some(Boolean) ? problems : null;
}

export function CreateTableModal({
  open,
  onClose,
  projectId,
  tables,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  projectId: string;
  tables: DbTable[];
  onCreated?: (table: DbTable) => void;
}) {
  const [name, setName] = useState('');
  const [columns, setColumns] = useState<ColumnDraft[]>([emptyColumn()]);
  const [access, setAccess] = useState<DbAccess>(DbAccess.none);
  const [nameError, setNameError] = useState<string | null>(null);
  const [columnErrors, setColumnErrors] = useState<(string | null)[]>([]);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateDbTable(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();
  const targets = referenceTargets(tables);

  function close() {
    setName('');
    setColumns([emptyColumn()]);
    setAccess(DbAccess.none);
    setNameError(null);
    setColumnErrors([]);
    setError(null);
    onClose();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const tableName = name.trim();
    const badName = nameProblem(tableName, 'Table name');
    const badColumns = columnProblems(columns);
    setNameError(badName);
    setColumnErrors(badColumns ?? []);
    if (badName || badColumns) return;
    create.mutate(
      { projectId, data: { name: tableName, columns: columns.map(columnSpec), access } },
      {
        onSuccess: async (table) => {
          toast.success('Table created', table.name);
          close();
          await queryClient.invalidateQueries({ queryKey: tablesKey(projectId) });
          onCreated?.(table);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  const hasPrimaryKey = columns.some((c) => c.primary_key);
  return (
    <FormModal
      open={open}
      onClose={close}
      title="Create Table"
      size="lg"
      formId="create-table"
      formClassName="form"
      onSubmit={onSubmit}
      busy={create.isPending}
      submitLabel="Create Table"
      busyLabel="Creating..."
    >
      <TextField
        label="Table name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setNameError(null);
        }}
        error={nameError}
        autoComplete="off"
        spellCheck={false}
      />
      <SelectField
        label="App access"
        value={access}
        onChange={(e) => setAccess(e.target.value as DbAccess)}
        hint={ACCESS_RULES.find((r) => r.value === access)?.explain}
      >
        {ACCESS_RULES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </SelectField>
      <div className="column-editor">
        <h3 className="section-label">Columns</h3>
        {!hasPrimaryKey && <p className="field-hint">No primary key chosen: an id bigint column (auto_increment) is added first.</p>}
        {columns.map((c, i) => (
          <ColumnFields
            key={i}
            legend={`Column ${i + 1}`}
            draft={c}
            targets={targets}
            error={columnErrors[i]}
            onChange={(d) => {
              setColumns(columns.map((old, j) => (j === i ? d : old)));
              setColumnErrors(columnErrors.map((err, j) => (j === i ? null : err)));
            }}
            onRemove={columns.length > 1 ? () => setColumns(columns.filter((_, j) => j !== i)) : undefined}
          />
        ))}
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setColumns([...columns, emptyColumn()])} disabled={columns.length >= MAX_COLUMNS}>
          <Icon name="plus" size={16} /> Add column
        </button>
      </div>
      <FormError message={error} />
    </FormModal>
  );
}
