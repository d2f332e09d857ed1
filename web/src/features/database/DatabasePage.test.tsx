import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import type { DbTable, DbTableList } from '../../api/generated/model';
import { mockFetch, renderWithProviders, type FakeAnswer, type FetchHandler } from '../../test/utils';
import DatabasePage from './DatabasePage';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const TABLES = '/api/project/p1/database/tables';
const CREATE = '/api/project/p1/database/create_table';
const SQL = '/api/project/p1/database/sql';
const MiB = 1024 * 1024;

const authors: DbTable = {
  name: 'authors',
  columns: [
    { name: 'id', type: 'bigint', nullable: false, primary_key: true, unique: true, default: 'auto_increment', references: null },
    { name: 'email', type: 'text', nullable: false, primary_key: false, unique: true, default: null, references: null },
  ],
  primary_key: ['id'],
  row_count: 1248,
  size_bytes: 2.5 * MiB,
  last_modified: '2026-11-23T09:30:00.000Z',
  access: 'read',
};
const posts: DbTable = {
  name: 'posts',
  columns: [
    { name: 'id', type: 'uuid', nullable: false, primary_key: true, unique: true, default: 'gen_random_uuid()', references: null },
    { name: 'author_id', type: 'bigint', nullable: true, primary_key: false, unique: false, default: null, references: { table: 'authors', column: 'id' } },
    { name: 'body', type: 'jsonb', nullable: true, primary_key: false, unique: false, default: null, references: null },
  ],
  primary_key: ['id'],
  row_count: 150000,
  row_count_estimated: true,
  size_bytes: 8192,
  last_modified: null,
  access: 'none',
};
const LIST: DbTableList = { tables: [authors, posts], size_bytes: 3 * MiB, usage_bytes: 50 * MiB, limit_bytes: 500 * MiB };

function renderPage(handler: FetchHandler) {
  const fetchMock = mockFetch(handler);
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1' }} />}>
        <Route path="*" element={<DatabasePage />} />
      </Route>
    </Routes>,
  );
  return fetchMock;
}

const NOT_FOUND: FakeAnswer = { status: 404, body: { message: 'Not Found' } };
const calls = (fetchMock: jest.Mock, path: string) => fetchMock.mock.calls.filter(([url]) => url === path);
const bodyOf = (call: unknown[]) => JSON.parse((call[1] as RequestInit).body as string) as unknown;

describe('the table list', () => {
  it('shows each real table with its columns, badges, row count, size, last change and access rule; no sample notice', async () => {
    renderPage((path) => (path === TABLES ? { body: LIST } : NOT_FOUND));
    const tables = await screen.findByRole('list', { name: 'Tables' });
    expect(within(tables).getAllByRole('listitem', { name: /^(authors|posts)$/ })).toHaveLength(2);

    const a = screen.getByRole('listitem', { name: 'authors' });
    expect(within(a).getByRole('link', { name: 'authors' }).getAttribute('href')).toMatch(/\/authors$/);
    const aColumns = within(a).getByRole('list', { name: 'Columns of authors' });
    expect(within(aColumns).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['id bigint PK', 'email text uniquenot null']);
    expect(within(a).getByText('1,248')).toBeTruthy();
    expect(within(a).getByText('2.50 MiB')).toBeTruthy();
    expect(within(a).getByText('Read with the key')).toBeTruthy();
    expect(within(a).queryByText('N/A')).toBeNull();

    const p = screen.getByRole('listitem', { name: 'posts' });
    expect(within(p).getByText('FK → authors.id')).toBeTruthy();
    expect(within(p).getByText('≈ 150,000')).toBeTruthy();
    expect(within(p).getByText('8.00 KiB')).toBeTruthy();
    expect(within(p).getByText('N/A')).toBeTruthy(); // never modified
    expect(within(p).getByText('No app access')).toBeTruthy();

    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByText(/sample/i)).toBeNull();
  });

  it('shows the database size against the plan limit', async () => {
    renderPage((path) => (path === TABLES ? { body: LIST } : NOT_FOUND));
    const usage = await screen.findByRole('region', { name: 'Database size' });
    expect(within(usage).getByText('50.00 MiB of 500.00 MiB')).toBeTruthy();
    expect(within(usage).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10');
    expect(within(usage).getByText('3.00 MiB')).toBeTruthy(); // this project
  });

  it('without tables: an empty state that offers Create Table', async () => {
    renderPage((path) => (path === TABLES ? { body: { tables: [], size_bytes: 0 } } : NOT_FOUND));
    expect(await screen.findByText('No tables yet')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /Create Table/ })).toHaveLength(2);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it("shows the server's message when the list can't load", async () => {
    renderPage((path) => (path === TABLES ? { status: 503, body: { message: 'The database is unavailable' } } : NOT_FOUND));
    expect((await screen.findByRole('alert')).textContent).toContain('The database is unavailable');
  });
});

describe('Create Table', () => {
  async function openForm(handler: FetchHandler) {
    const fetchMock = renderPage(handler);
    await screen.findByRole('list', { name: 'Tables' });
    fireEvent.click(screen.getAllByRole('button', { name: /Create Table/ })[0]);
    return { fetchMock, dialog: screen.getByRole('dialog', { name: 'Create Table' }) };
  }
  const column = (dialog: HTMLElement, n: number) => within(dialog).getByRole('group', { name: `Column ${n}` });

  it('sends the name, the typed columns (primary key, not null, unique, default, foreign key) and the access rule', async () => {
    const created: DbTable = { ...authors, name: 'comments', row_count: 0, access: 'signed_in' };
    let listed = 0;
    const { fetchMock, dialog } = await openForm((path) => {
      if (path === TABLES) return { body: listed++ === 0 ? LIST : { ...LIST, tables: [...LIST.tables, created] } };
      if (path === CREATE) return { body: created };
      return NOT_FOUND;
    });
    fireEvent.change(within(dialog).getByLabelText('Table name'), { target: { value: 'comments' } });
    fireEvent.change(within(dialog).getByLabelText('App access'), { target: { value: 'signed_in' } });

    const first = column(dialog, 1);
    fireEvent.change(within(first).getByLabelText('Name'), { target: { value: 'id' } });
    fireEvent.change(within(first).getByLabelText('Type'), { target: { value: 'uuid' } });
    fireEvent.change(within(first).getByLabelText('Default'), { target: { value: 'gen_random_uuid()' } });
    fireEvent.click(within(first).getByLabelText('Primary key'));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add column' }));
    const second = column(dialog, 2);
    fireEvent.change(within(second).getByLabelText('Name'), { target: { value: 'author_id' } });
    fireEvent.change(within(second).getByLabelText('Type'), { target: { value: 'bigint' } });
    fireEvent.click(within(second).getByLabelText('Not null'));
    // A foreign key may name another table's primary key or unique column.
    const fk = within(second).getByLabelText('Foreign key');
    expect(within(fk).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual(['', 'authors.id', 'authors.email', 'posts.id']);
    fireEvent.change(fk, { target: { value: 'authors.id' } });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add column' }));
    const third = column(dialog, 3);
    fireEvent.change(within(third).getByLabelText('Name'), { target: { value: 'body' } });
    fireEvent.click(within(third).getByLabelText('Unique'));
    expect((within(third).getByLabelText('Type') as HTMLSelectElement).value).toBe('text');
    expect(within(third).getAllByRole('option').filter((o) => o.closest('select') === within(third).getByLabelText('Type')).map((o) => o.textContent)).toEqual([
      'text',
      'integer',
      'bigint',
      'numeric',
      'boolean',
      'timestamptz',
      'jsonb',
      'uuid',
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Table' })).toBeNull());
    expect(calls(fetchMock, CREATE)).toHaveLength(1);
    expect(bodyOf(calls(fetchMock, CREATE)[0])).toEqual({
      name: 'comments',
      access: 'signed_in',
      columns: [
        { name: 'id', type: 'uuid', primary_key: true, default: 'gen_random_uuid()' },
        { name: 'author_id', type: 'bigint', not_null: true, references: { table: 'authors', column: 'id' } },
        { name: 'body', type: 'text', unique: true },
      ],
    });
    // The list is read again (the new table's card).
    await waitFor(() => expect(calls(fetchMock, TABLES).length).toBeGreaterThanOrEqual(2));
    expect((await screen.findByRole('status')).textContent).toContain('Table created');
  });

  it('checks names before sending: the table name rule, blank and repeated column names', async () => {
    const { fetchMock, dialog } = await openForm((path) => (path === TABLES ? { body: LIST } : NOT_FOUND));
    fireEvent.change(within(dialog).getByLabelText('Table name'), { target: { value: 'x; drop table' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add column' }));
    fireEvent.change(within(column(dialog, 1)).getByLabelText('Name'), { target: { value: 'title' } });
    fireEvent.change(within(column(dialog, 2)).getByLabelText('Name'), { target: { value: 'title' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Table' }));

    expect(within(dialog).getByText('Table name must start with a letter or underscore and hold only letters, digits and underscores')).toBeTruthy();
    expect(within(column(dialog, 2)).getByText('Two columns have this name')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Table name'), { target: { value: 'pg_stuff' } });
    fireEvent.change(within(column(dialog, 2)).getByLabelText('Name'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    expect(within(dialog).getByText('Table name must not start with "pg_" or "hb_" (reserved)')).toBeTruthy();
    expect(within(column(dialog, 2)).getByText('Column name is required')).toBeTruthy();
    expect(calls(fetchMock, CREATE)).toHaveLength(0);

    // Unicode letters are names too, and a column can be removed.
    fireEvent.change(within(dialog).getByLabelText('Table name'), { target: { value: 'café_ünits' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove Column 2' }));
    expect(within(dialog).queryByRole('group', { name: 'Column 2' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    await waitFor(() => expect(calls(fetchMock, CREATE)).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, CREATE)[0])).toEqual({ name: 'café_ünits', access: 'none', columns: [{ name: 'title', type: 'text' }] });
  });

  it("keeps the form open with the server's message when it refuses (409, 400)", async () => {
    let answer: FakeAnswer = { status: 409, body: { message: 'A table named authors already exists' } };
    const { dialog } = await openForm((path) => (path === TABLES ? { body: LIST } : path === CREATE ? answer : NOT_FOUND));
    fireEvent.change(within(dialog).getByLabelText('Table name'), { target: { value: 'authors' } });
    fireEvent.change(within(column(dialog, 1)).getByLabelText('Name'), { target: { value: 'n' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('A table named authors already exists');

    answer = { status: 400, body: { message: 'columns[0].default "abc" is not a valid integer' } };
    fireEvent.change(within(dialog).getByLabelText('Table name'), { target: { value: 'numbers' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Table' }));
    await within(dialog).findByText('columns[0].default "abc" is not a valid integer');
    expect(screen.getByRole('dialog', { name: 'Create Table' })).toBeTruthy();
    // The page shows the error itself: no toast.
    expect(screen.queryAllByRole('alert').filter((el) => el.classList.contains('toast'))).toHaveLength(0);
  });
});

describe('the SQL box', () => {
  const run = (query: string) => {
    fireEvent.change(screen.getByLabelText('SQL query'), { target: { value: query } });
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
  };

  it('shows the result in a grid with the row count, the duration and the truncated notice; repeated column names are kept', async () => {
    const fetchMock = renderPage((path) =>
      path === TABLES
        ? { body: LIST }
        : path === SQL
          ? {
              body: {
                columns: [
                  { name: 'id', type: 'int8' },
                  { name: 'id', type: 'uuid' },
                  { name: 'body', type: 'jsonb' },
                ],
                rows: [
                  [1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', { tags: ['x'] }],
                  [2, null, null],
                ],
                row_count: 1000,
                truncated: true,
                duration_ms: 12,
              },
            }
          : NOT_FOUND,
    );
    await screen.findByRole('list', { name: 'Tables' });
    expect((screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement).disabled).toBe(true);
    run('select a.id, p.id, p.body from authors a join posts p on p.author_id = a.id');
    const grid = await screen.findByRole('table', { name: 'Query result' });
    expect(bodyOf(calls(fetchMock, SQL)[0])).toEqual({ query: 'select a.id, p.id, p.body from authors a join posts p on p.author_id = a.id' });
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['id', 'id', 'body']);
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(within(rows[0]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{"tags":["x"]}']);
    expect(within(rows[1]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2', 'NULL', 'NULL']);
    expect(screen.getByText('1,000 rows in 12 ms · truncated: only the first 1,000 rows are shown')).toBeTruthy();
  });

  it.each([
    [429, 'Your last database call ran past its time limit, so your database calls are paused. Try again in 20 seconds.'],
    [422, 'relation "nope" does not exist'],
    [400, 'Only one read-only query (SELECT, WITH, VALUES or TABLE) can run here'],
  ])("shows the server's %i message", async (status, message) => {
    renderPage((path) => (path === TABLES ? { body: LIST } : path === SQL ? { status, body: { message } } : NOT_FOUND));
    await screen.findByRole('list', { name: 'Tables' });
    run('select * from nope');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByRole('table', { name: 'Query result' })).toBeNull();
  });
});
