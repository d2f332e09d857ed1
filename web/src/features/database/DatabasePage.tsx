// Sample content: the database API is not in the contract yet. Create Table only adds to this list.
import { useState, type FormEvent } from 'react';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { PageHeader, SampleNotice } from '../../components/PageHeader';
import { Empty } from '../../components/States';
import { usePageTitle } from '../../lib/usePageTitle';

interface Table {
  name: string;
  columns: string[];
  rows: number;
  size: string;
  modified: string;
}

const SAMPLE: Table[] = [
  { name: 'users', columns: ['id', 'email', 'name', 'created_at'], rows: 1248, size: '2.4 MB', modified: '2 hours ago' },
  { name: 'posts', columns: ['id', 'user_id', 'title', 'body', 'published_at'], rows: 5312, size: '18.7 MB', modified: '35 minutes ago' },
  { name: 'comments', columns: ['id', 'post_id', 'user_id', 'body', 'created_at'], rows: 20417, size: '9.1 MB', modified: '5 minutes ago' },
];

export default function DatabasePage() {
  usePageTitle('Database');
  const [tables, setTables] = useState<Table[]>(SAMPLE);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  function onCreate(e: FormEvent) {
    e.preventDefault();
    const n = name.trim();
    if (!/^[a-z_][a-z0-9_]{0,62}$/i.test(n)) return setError('Use letters, digits and underscores, starting with a letter.');
    if (tables.some((t) => t.name === n)) return setError('A table with this name already exists');
    setTables((t) => [...t, { name: n, columns: ['id', 'created_at'], rows: 0, size: '0 B', modified: 'just now' }]);
    setName('');
    setError(null);
    setOpen(false);
  }

  return (
    <div className="console-page">
      <PageHeader
        title="Database"
        description="Tables of your project's database."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setOpen(true)}>
            <Icon name="plus" size={16} /> Create Table
          </button>
        }
      />
      <SampleNotice>Preview: these tables are sample data. New tables are kept in this page only until the database API ships.</SampleNotice>
      {tables.length === 0 ? (
        <Empty icon="database" title="No tables" />
      ) : (
        <ul className="card-grid card-grid-3">
          {tables.map((t) => (
            <li key={t.name} className="card table-tile">
              <h2 className="mono">{t.name}</h2>
              <p className="muted">{t.columns.join(', ')}</p>
              <dl className="tile-stats">
                <div>
                  <dt>Rows</dt>
                  <dd>{t.rows.toLocaleString()}</dd>
                </div>
                <div>
                  <dt>Size</dt>
                  <dd>{t.size}</dd>
                </div>
                <div>
                  <dt>Modified</dt>
                  <dd>{t.modified}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Create Table"
        size="sm"
        footer={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" form="create-table" className="btn btn-primary">
              Create
            </button>
          </>
        }
      >
        <form id="create-table" className="form" onSubmit={onCreate}>
          <TextField label="Table name" value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="off" />
        </form>
      </Modal>
    </div>
  );
}
