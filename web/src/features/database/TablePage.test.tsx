import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Outlet, Route, Routes } from 'react-router-dom';
import type { DbTable, DbTableList } from '../../api/generated/model';
import { mockFetch, renderWithProviders, type FakeAnswer, type FetchHandler } from '../../test/utils';
import TablePage from './TablePage';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const BASE = '/api/project/p1/database';
const ROWS = `${BASE}/tables/notes/rows`;

const notes: DbTable = {
  name: 'notes',
  columns: [
    { name: 'id', type: 'bigint', nullable: false, primary_key: true, unique: true, default: 'auto_increment', references: null },
    { name: 'title', type: 'text', nullable: false, primary_key: false, unique: false, default: null, references: null },
    { name: 'done', type: 'boolean', nullable: true, primary_key: false, unique: false, default: 'false', references: null },
    { name: 'meta', type: 'jsonb', nullable: true, primary_key: false, unique: false, default: null, references: null },
  ],
  primary_key: ['id'],
  row_count: 2,
  size_bytes: 16384,
  last_modified: '2026-11-23T09:30:00.000Z',
  access: 'none',
};
const LIST: DbTableList = { tables: [notes], size_bytes: 16384 };
const PAGE = {
  rows: [
    { id: 1, title: 'first', done: false, meta: { a: 1 } },
    { id: 2, title: 'second', done: null, meta: null },
  ],
  page: 1,
  page_size: 100,
  next_page: null,
  total: 2,
};
const NOT_FOUND: FakeAnswer = { status: 404, body: { message: 'Not Found' } };

function renderTable(more: Record<string, FakeAnswer> = {}, handler?: FetchHandler) {
  const fetchMock = mockFetch(
    handler ??
      ((path) => {
        if (path === `${BASE}/tables`) return { body: LIST };
        if (path === `${ROWS}/select`) return { body: PAGE };
        return more[path] ?? NOT_FOUND;
      }),
  );
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={{ projectId: 'p1' }} />}>
        <Route path="project/p1/database/:table" element={<TablePage />} />
      </Route>
    </Routes>,
    { route: '/project/p1/database/notes' },
  );
  return fetchMock;
}

const calls = (fetchMock: jest.Mock, path: string) => fetchMock.mock.calls.filter(([url]) => url === path);
const bodies = (fetchMock: jest.Mock, path: string) => calls(fetchMock, path).map((c) => JSON.parse((c[1] as RequestInit).body as string) as unknown);

describe('the row grid', () => {
  it('shows a page of rows with every column, NULL and JSON readable, and the count', async () => {
    const fetchMock = renderTable();
    const grid = await screen.findByRole('table', { name: 'Rows of notes' });
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['id', 'title', 'done', 'meta', 'Actions']);
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(within(rows[0]).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual(['1', 'first', 'false', '{"a":1}']);
    expect(within(rows[1]).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual(['2', 'second', 'NULL', 'NULL']);
    expect(screen.getByText('Showing 1 to 2 of 2 rows')).toBeTruthy();
    expect(bodies(fetchMock, `${ROWS}/select`)[0]).toEqual({ page: 1, count: true });
  });

  it('sorts by a column when its header is clicked: ascending, descending, then unsorted', async () => {
    const fetchMock = renderTable();
    await screen.findByRole('table', { name: 'Rows of notes' });
    const header = () => screen.getByRole('columnheader', { name: /title/ });
    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('ascending'));
    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('descending'));
    fireEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(header().getAttribute('aria-sort')).toBe('none'));
    await waitFor(() =>
      expect(bodies(fetchMock, `${ROWS}/select`)).toEqual(
        expect.arrayContaining([
          { page: 1, count: true, order: [{ column: 'title', ascending: true }] },
          { page: 1, count: true, order: [{ column: 'title', ascending: false }] },
        ]),
      ),
    );
  });

  it('pages with Next and Previous (100 rows a page)', async () => {
    const fetchMock = renderTable({}, (path, body) => {
      if (path === `${BASE}/tables`) return { body: LIST };
      if (path === `${ROWS}/select`) {
        const page = (body as { page: number }).page;
        const rows = Array.from({ length: page === 1 ? 100 : 5 }, (_, i) => ({ id: (page - 1) * 100 + i + 1, title: `t${i}`, done: null, meta: null }));
        return { body: { rows, page, page_size: 100, next_page: page === 1 ? 2 : null, total: 105 } };
      }
      return NOT_FOUND;
    });
    await screen.findByText('Showing 1 to 100 of 105 rows');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    await screen.findByText('Showing 101 to 105 of 105 rows');
    expect((screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Previous/ }));
    await screen.findByText('Showing 1 to 100 of 105 rows');
    expect(bodies(fetchMock, `${ROWS}/select`).map((b) => (b as { page: number }).page)).toEqual([1, 2]);
  });

  it('adds a row with typed values: left-out columns take their default, JSON is parsed, bad input is caught first', async () => {
    const fetchMock = renderTable({ [`${ROWS}/insert`]: { body: { message: 'inserted', count: 1, rows: [] } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add row' }));
    const dialog = screen.getByRole('dialog', { name: 'Add row to notes' });
    fireEvent.change(within(dialog).getByLabelText('title'), { target: { value: 'third' } });
    fireEvent.change(within(dialog).getByLabelText('meta'), { target: { value: '{"tags": [' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add row' }));
    expect(within(dialog).getByText('Enter valid JSON')).toBeTruthy();
    expect(calls(fetchMock, `${ROWS}/insert`)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('meta'), { target: { value: '{"tags": ["x"]}' } });
    fireEvent.change(within(dialog).getByLabelText('done'), { target: { value: 'true' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add row' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies(fetchMock, `${ROWS}/insert`)).toEqual([{ rows: [{ title: 'third', done: true, meta: { tags: ['x'] } }] }]);
  });

  it('edits a row by its primary key, sending only what changed (NULL included)', async () => {
    const fetchMock = renderTable({ [`${ROWS}/update`]: { body: { message: 'updated', count: 1, rows: [] } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit row id 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit row of notes' });
    expect((within(dialog).getByLabelText('title') as HTMLInputElement).value).toBe('first');
    fireEvent.change(within(dialog).getByLabelText('title'), { target: { value: 'first, edited' } });
    fireEvent.click(within(dialog).getByLabelText('meta is NULL'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save row' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies(fetchMock, `${ROWS}/update`)).toEqual([{ filters: [{ column: 'id', op: 'eq', value: 1 }], values: { title: 'first, edited', meta: null } }]);
  });

  it("deletes a row after confirming, and shows the server's refusal in the dialog", async () => {
    let answer: FakeAnswer = { status: 409, body: { message: 'A row of another table references this row' } };
    const fetchMock = renderTable({}, (path) => {
      if (path === `${BASE}/tables`) return { body: LIST };
      if (path === `${ROWS}/select`) return { body: PAGE };
      if (path === `${ROWS}/delete`) return answer;
      return NOT_FOUND;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete row id 2' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete row' });
    expect(confirm.textContent).toContain('Delete id 2 from notes?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete row' }));
    expect((await within(confirm).findByRole('alert')).textContent).toBe('A row of another table references this row');

    answer = { body: { message: 'deleted', count: 1, rows: [] } };
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete row' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(bodies(fetchMock, `${ROWS}/delete`)).toEqual([{ filters: [{ column: 'id', op: 'eq', value: 2 }] }, { filters: [{ column: 'id', op: 'eq', value: 2 }] }]);
  });
});

describe('the table settings', () => {
  it('explains each access rule and saves the chosen one', async () => {
    const fetchMock = renderTable({ [`${BASE}/set_access`]: { body: { ...notes, access: 'read' } } });
    const rule = await screen.findByRole('radio', { name: 'Read with the key' });
    expect(screen.getAllByRole('radio').map((r) => r.getAttribute('aria-describedby') && document.getElementById(r.getAttribute('aria-describedby')!)?.textContent)).toEqual([
      'Only you, from this console: every app call is refused.',
      "Any caller with the project's key may read every row; nobody may write.",
      'Signed-in end users may read and write every row; the key alone gets nothing.',
      'Each row belongs to the end user who inserted it (owner_id); users read and write only their own rows.',
    ]);
    expect((screen.getByRole('radio', { name: 'No app access' }) as HTMLInputElement).checked).toBe(true);
    const save = screen.getByRole('button', { name: 'Save access rule' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(rule);
    fireEvent.click(save);
    await screen.findByText('Access rule saved');
    expect(bodies(fetchMock, `${BASE}/set_access`)).toEqual([{ table: 'notes', access: 'read' }]);
  });

  it('renames and drops a column', async () => {
    const fetchMock = renderTable({ [`${BASE}/rename_column`]: { body: notes }, [`${BASE}/drop_column`]: { body: notes } });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename column title' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename title' });
    fireEvent.change(within(dialog).getByLabelText('New name'), { target: { value: 'heading' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodies(fetchMock, `${BASE}/rename_column`)).toEqual([{ table: 'notes', column: 'title', new_name: 'heading' }]);

    fireEvent.click(screen.getByRole('button', { name: 'Drop column meta' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Drop column' })).getByRole('button', { name: 'Drop column' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(bodies(fetchMock, `${BASE}/drop_column`)).toEqual([{ table: 'notes', column: 'meta' }]);
  });

  it('drops the table only after its name is typed', async () => {
    const fetchMock = renderTable({ [`${BASE}/drop_table`]: { body: { message: 'dropped' } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Drop table' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Drop notes' });
    const confirm = within(dialog).getByRole('button', { name: 'Drop table' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: 'note' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/to confirm/), { target: { value: 'notes' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(calls(fetchMock, `${BASE}/drop_table`)).toHaveLength(1));
    expect(bodies(fetchMock, `${BASE}/drop_table`)).toEqual([{ name: 'notes', confirm: 'notes' }]);
  });
});
