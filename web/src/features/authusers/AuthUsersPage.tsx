import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import {
  useAddAuthUser,
  useDeleteAuthUser,
  useListAuthUsers,
  useResetAuthUserPassword,
} from '../../api/generated/auth-users/auth-users';
import type { AuthUser } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { PageHeader } from '../../components/PageHeader';
import { Empty, ErrorState, Loading } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { AuthSettingsPanel } from './AuthSettingsPanel';

export const USERS_PAGE_SIZE = 100;

/** "Showing X to Y of N users" */
export function showingText(page: number, pageSize: number, count: number, total: number): string {
  const first = total === 0 || count === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = count === 0 ? 0 : first + count - 1;
  return `Showing ${first} to ${last} of ${total} users`;
}

function AddUserModal({ open, onClose, projectId }: { open: boolean; onClose: () => void; projectId: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddAuthUser();
  const queryClient = useQueryClient();
  const toast = useToast();

  function close() {
    setEmail('');
    setPassword('');
    setError(null);
    onClose();
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!email.trim() || !projectId) {
      setError('Email and project are required');
      return;
    }
    add.mutate(
      { projectId, data: { email: email.trim(), password } },
      {
        onSuccess: async () => {
          toast.success('User added', email.trim());
          close();
          await queryClient.invalidateQueries({ queryKey: [`/project/${projectId}/auth/users_list`] });
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <Modal
      open={open}
      onClose={close}
      busy={add.isPending}
      title="Add User"
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={close} disabled={add.isPending}>
            Cancel
          </button>
          <button type="submit" form="add-user-form" className="btn btn-primary" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add User'}
          </button>
        </>
      }
    >
      <form id="add-user-form" className="form" onSubmit={onSubmit}>
        <TextField label="Email" type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        <TextField
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}

export default function AuthUsersPage() {
  usePageTitle('Authentication');
  const { projectId } = useProject();
  const [page, setPage] = useState(1);
  const users = useListAuthUsers(projectId, { page }, { query: { placeholderData: keepPreviousData } });
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<AuthUser | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [toReset, setToReset] = useState<AuthUser | null>(null);
  const [resetError, setResetError] = useState<string | null>(null);
  const del = useDeleteAuthUser();
  const reset = useResetAuthUserPassword();
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = () => queryClient.invalidateQueries({ queryKey: [`/project/${projectId}/auth/users_list`] });

  function confirmDelete() {
    if (!toDelete) return;
    setDeleteError(null);
    del.mutate(
      { projectId, data: { user_id: toDelete.user_id, email: toDelete.email } },
      {
        onSuccess: async () => {
          toast.success('User deleted', toDelete.email);
          setToDelete(null);
          if (users.data && users.data.users.length === 1 && page > 1) setPage(page - 1);
          await refresh();
        },
        onError: (err) => setDeleteError(errorMessage(err)),
      },
    );
  }

  function confirmReset() {
    if (!toReset) return;
    setResetError(null);
    reset.mutate(
      { projectId, data: { user_id: toReset.user_id, email: toReset.email } },
      {
        onSuccess: () => {
          toast.success('Password reset email sent', toReset.email);
          setToReset(null);
        },
        onError: (err) => setResetError(errorMessage(err)),
      },
    );
  }

  const data = users.data;
  const pageSize = data?.page_size ?? USERS_PAGE_SIZE;

  return (
    <div className="console-page">
      <PageHeader
        title="Authentication"
        description="The end users of this project's authentication service."
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => refresh()} disabled={users.isFetching}>
              <Icon name="refresh" size={16} /> {users.isFetching && !users.isPending ? 'Refreshing...' : 'Refresh'}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              <Icon name="plus" size={16} /> Add User
            </button>
          </>
        }
      />

      {users.isPending ? (
        <Loading label="Loading users..." />
      ) : users.isError ? (
        <ErrorState title="Could not load users" error={users.error} onRetry={() => users.refetch()} />
      ) : data!.users.length === 0 && page === 1 ? (
        <Empty
          icon="user"
          title="No users yet"
          action={
            <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
              <Icon name="plus" size={16} /> Add User
            </button>
          }
        >
          Users appear here when they sign up in your app or when you add them.
        </Empty>
      ) : (
        <div className="card table-card">
          <div className="table-scroll">
            <table className="table">
              <caption className="visually-hidden">Users</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">UID</th>
                  <th scope="col">Last Login</th>
                  <th scope="col">Created At</th>
                  <th scope="col" className="col-actions">
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody>
                {data!.users.map((u) => (
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
                        <button
                          type="button"
                          className="icon-btn"
                          aria-label={`Reset password of ${u.email}`}
                          title="Reset password"
                          onClick={() => {
                            setResetError(null);
                            setToReset(u);
                          }}
                        >
                          <Icon name="lock" size={16} />
                        </button>
                        <button
                          type="button"
                          className="icon-btn icon-btn-danger"
                          aria-label={`Delete ${u.email}`}
                          title="Delete user"
                          onClick={() => {
                            setDeleteError(null);
                            setToDelete(u);
                          }}
                        >
                          <Icon name="trash" size={16} />
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="table-foot">
            <span className="muted" role="status">
              {showingText(data!.page, pageSize, data!.users.length, data!.total)}
            </span>
            <div className="pager">
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setPage((p) => Math.max(1, p - 1))}
                disabled={page <= 1 || users.isFetching}
              >
                <Icon name="chevronLeft" size={16} /> Previous
              </button>
              <span className="pager-page">
                Page {page} of {Math.max(1, Math.ceil(data!.total / pageSize))}
              </span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setPage((p) => data!.next_page ?? p + 1)}
                disabled={!(data!.next_page ?? page * pageSize < data!.total) || users.isFetching}
              >
                Next <Icon name="chevronRight" size={16} />
              </button>
            </div>
          </div>
        </div>
      )}

      <AuthSettingsPanel projectId={projectId} />

      <AddUserModal open={adding} onClose={() => setAdding(false)} projectId={projectId} />
      <ConfirmDialog
        open={!!toDelete}
        title="Delete user"
        danger
        confirmLabel="Delete user"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={deleteError}
        message={
          <p>
            Delete <strong>{toDelete?.email}</strong>? They can no longer sign in to your app. This cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
      <ConfirmDialog
        open={!!toReset}
        title="Reset password"
        confirmLabel="Send reset email"
        busyLabel="Sending..."
        busy={reset.isPending}
        error={resetError}
        message={
          <p>
            Send a password reset link to <strong>{toReset?.email}</strong>?
          </p>
        }
        onConfirm={confirmReset}
        onCancel={() => setToReset(null)}
      />
    </div>
  );
}
