// The SQL box: one read-only query against the project's schema, its result in a grid. The server's
// refusals are shown as they come (400 not a query, 422 PostgreSQL's message or the timeout, 429
// after queries kept running out of time).
import { useId, useState, type FormEvent } from 'react';
import { useRunDbSql } from '../../api/generated/database/database';
import type { DbSqlResult } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextArea } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { Icon } from '../../components/Icon';
import { cellText } from './db';
import { formatNumber } from '../../lib/format';

export function SqlBox({ projectId }: { projectId: string }) {
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<DbSqlResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useRunDbSql(inlineError);
  const titleId = useId();

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!query.trim() || run.isPending) return;
    setError(null);
    run.mutate(
      { projectId, data: { query } },
      {
        onSuccess: (res) => setResult(res),
        onError: (err) => {
          setResult(null);
          setError(errorMessage(err));
        },
      },
    );
  }

  return (
    <section className="card panel sql-box" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel-title">
        SQL
      </h2>
      <form className="form" onSubmit={submit}>
        <TextArea
          label="SQL query"
          hint="One read-only query (SELECT, WITH, VALUES or TABLE) on this project's tables; at most 1,000 rows come back. Ctrl+Enter runs it."
          className="input mono sql-input"
          rows={5}
          value={query}
          placeholder="select * from my_table limit 10"
          spellCheck={false}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
          }}
        />
        <div>
          <button type="submit" className="btn btn-primary" disabled={!query.trim() || run.isPending}>
            <Icon name="terminal" size={16} /> {run.isPending ? 'Running...' : 'Run'}
          </button>
        </div>
      </form>
      <FormError message={error} />
      {result && <SqlResult result={result} />}
    </section>
  );
}

function SqlResult({ result }: { result: DbSqlResult }) {
  return (
    <div className="sql-result">
      <p className="muted" role="status">
        {formatNumber(result.row_count)} {result.row_count === 1 ? 'row' : 'rows'} in {formatNumber(result.duration_ms)} ms
        {result.truncated ? ' · truncated: only the first 1,000 rows are shown' : ''}
      </p>
      {result.columns.length > 0 && <ResultGrid result={result} />}
    </div>
  );
}

function ResultGrid({ result }: { result: DbSqlResult }) {
  // Column names may repeat (select a.id, b.id): headers and cells go by position.
  return (
    <div className="table-scroll">
      <table className="table data-grid">
        <caption className="visually-hidden">Query result</caption>
        <thead>
          <tr>
            {result.columns.map((c, i) => (
              <th key={i} scope="col" title={c.type}>
                {c.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row, r) => (
            <tr key={r}>
              {row.map((v, i) => (
                <td key={i} className={v === null ? 'cell cell-null' : 'cell'}>
                  {cellText(v)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
