import { useState } from 'react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import {
  getListAuthUsersQueryKey,
  useDeleteAuthUser,
  useListAuthUsers,
  useResetAuthUserPassword,
} from '../../api/generated/end-users/end-users';
import type { AuthUser } from '../../api/generated/model';
import { allOf, inlineError } from '../../api/queryClient';
import { ConfirmDialog, useConfirmTarget } from '../../components/ConfirmDialog';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { Empty, QueryView } from '../../components/States';
import { useToast } from '../../components/Toast';
import { usePageTitle } from '../../lib/usePageTitle';
import { useProject } from '../console/ProjectLayout';
import { AddUserModal } from './AddUserModal';
import { AuthSettingsPanel } from './AuthSettingsPanel';
import { UsersTable } from './UsersTable';

export default function AuthUsersPage() {
  usePageTitle('Authentication');
  const { projectId } = useProject();
  const [page, setPage] = useState(1);
  const users = useListAuthUsers(projectId, { page }, { query: { placeholderData: keepPreviousData } });
  const [adding, setAdding] = useState(false);
  const toDelete = useConfirmTarget<AuthUser>();
  const toReset = useConfirmTarget<AuthUser>();
  const del = useDeleteAuthUser(inlineError);
  const reset = useResetAuthUserPassword(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = () => queryClient.invalidateQueries({ queryKey: allOf(getListAuthUsersQueryKey(projectId)) });

  const confirmDelete = () =>
    toDelete.confirm((user) =>
      del.mutate(
        { projectId, data: { user_id: user.user_id, email: user.email } },
        toDelete.settle(async () => {
          toast.success('User deleted', user.email);
          if (users.data && users.data.users.length === 1 && page > 1) setPage(page - 1);
          await refresh();
        }),
      ),
    );

  const confirmReset = () =>
    toReset.confirm((user) =>
      reset.mutate(
        { projectId, data: { user_id: user.user_id, email: user.email } },
        toReset.settle(() => toast.success('Password reset email sent', user.email)),
      ),
    );

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

      <QueryView
        query={users}
        loading="Loading users..."
        errorTitle="Could not load users"
        isEmpty={(data) => data.users.length === 0 && page === 1}
        empty={
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
        }
      >
        {(data) => (
          <UsersTable data={data} page={page} setPage={setPage} fetching={users.isFetching} onReset={toReset.open} onDelete={toDelete.open} />
        )}
      </QueryView>

      <AuthSettingsPanel projectId={projectId} />

      <AddUserModal open={adding} onClose={() => setAdding(false)} projectId={projectId} />
      <ConfirmDialog
        open={!!toDelete.target}
        title="Delete user"
        danger
        confirmLabel="Delete user"
        busyLabel="Deleting..."
        busy={del.isPending}
        error={toDelete.error}
        message={
          <p>
            Delete <strong>{toDelete.target?.email}</strong>? They can no longer sign in to your app. This cannot be undone.
          </p>
        }
        onConfirm={confirmDelete}
        onCancel={toDelete.close}
      />
      <ConfirmDialog
        open={!!toReset.target}
        title="Reset password"
        confirmLabel="Send reset email"
        busyLabel="Sending..."
        busy={reset.isPending}
        error={toReset.error}
        message={
          <p>
            Send a password reset link to <strong>{toReset.target?.email}</strong>?
          </p>
        }
        onConfirm={confirmReset}
        onCancel={toReset.close}
      />
    </div>
  );
}
