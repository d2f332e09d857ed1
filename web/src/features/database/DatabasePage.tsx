// The Database screen: the project's real tables (its own PostgreSQL schema), the database's size
// against the plan, Create Table and the SQL box. A table's name opens its row grid (TablePage).
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useListDbTables } from '../../api/generated/database/database';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryView } from '../../components/States';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { CreateTableModal } from './CreateTableModal';
import { DatabaseUsage } from './DatabaseUsage';
import { SqlBox } from './SqlBox';
import { TableCard } from './TableCard';

export default function DatabasePage() {
  usePageTitle('Database');
  const { projectId } = useProject();
  const tables = useListDbTables(projectId, {});
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();

  const createButton = (
    <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
      <Icon name="plus" size={16} /> Create Table
    </button>
  );

  return (
    <div className="console-page">
      <PageHeader title="Database" description="The tables of your project's PostgreSQL database." actions={createButton} />
      <QueryView query={tables} loading="Loading tables..." errorTitle="Could not load the tables">
        {(list) => (
          <>
            <DatabaseUsage list={list} />
            {list.tables.length === 0 ? (
              <Empty icon="database" title="No tables yet" action={createButton}>
                Create a table with typed columns, then add rows here or from your app.
              </Empty>
            ) : (
              <ul className="card-grid card-grid-3" aria-label="Tables">
                {list.tables.map((t) => (
                  <TableCard key={t.name} table={t} />
                ))}
              </ul>
            )}
          </>
        )}
      </QueryView>
      <SqlBox projectId={projectId} />
      <CreateTableModal
        open={creating}
        onClose={() => setCreating(false)}
        projectId={projectId}
        tables={tables.data?.tables ?? []}
        onCreated={(t) => navigate(encodeURIComponent(t.name))}
      />
    </div>
  );
}
