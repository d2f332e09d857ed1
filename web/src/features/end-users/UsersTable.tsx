import type { listAuthUsers } from '../../api/generated/end-users/end-users';
import type { AuthUser } from '../../api/generated/model';
import { CopyButton } from '../../components/CopyButton';
import { DataTable, Pager } from '../../components/DataTable';
import { IconButton } from '../../components/IconButton';
import { formatDate } from '../../lib/format';

export const USERS_PAGE_SIZE = 100;

/** "Showing X to Y of N users" */
export function showingText(page: number, pageSize: number, count: number, total: number): string {
  const first = total === 0 || count === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = count === 0 ? 0 : first + count - 1;
  return `Showing ${first} to ${last} of ${total} users`;
}

/** One page of the project's end users, with their actions and the pager. */
export function UsersTable({
  data,
  page,
  setPage,
  fetching,
  onReset,
  onDelete,
}: {
  data: Awaited<ReturnType<typeof listAuthUsers>>;
  page: number;
  setPage: (update: (page: number) => number) => void;
  fetching: boolean;
  onReset: (user: AuthUser) => void;
  onDelete: (user: AuthUser) => void;
}) {
  const pageSize = data.page_size ?? USERS_PAGE_SIZE;
  return (
    <div className="card table-card">
      <DataTable caption="Users" columns={['User', 'UID', 'Last Login', 'Created At']} actions>
        {data.users.map((u) => (
          <tr key={u.user_id}>
            <td data-label="User">
              <span className="user-cell">
                <span className="avatar" aria-hidden="true">
                  {u.email[0]?.toUpperCase()}
                </span>
                <span className="user-email">{u.email}</span>
              </span>
            </td>
            <td data-label="UID">
              <span className="uid">
                <code title={u.user_id}>{u.user_id}</code>
                <CopyButton value={u.user_id} label={`UID of ${u.email}`} />
              </span>
            </td>
            <td data-label="Last Login">{formatDate(u.last_login)}</td>
            <td data-label="Created At">{formatDate(u.created_at)}</td>
            <td className="col-actions">
              <div className="row-actions">
                <IconButton icon="lock" label={`Reset password of ${u.email}`} title="Reset password" onClick={() => onReset(u)} />
                <IconButton icon="trash" danger label={`Delete ${u.email}`} title="Delete user" onClick={() => onDelete(u)} />
              </div>
            </td>
          </tr>
        ))}
      </DataTable>
      <Pager
        summary={showingText(data.page, pageSize, data.users.length, data.total)}
        announce
        page={
          <>
            Page {page} of {Math.max(1, Math.ceil(data.total / pageSize))}
          </>
        }
        onPrevious={() => setPage((p) => Math.max(1, p - 1))}
        onNext={() => setPage((p) => data.next_page ?? p + 1)}
        previousDisabled={page <= 1 || fetching}
        nextDisabled={!(data.next_page ?? page * pageSize < data.total) || fetching}
      />
    </div>
  );
}
