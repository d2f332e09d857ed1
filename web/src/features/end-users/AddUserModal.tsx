import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getListAuthUsersQueryKey, useAddAuthUser } from '../../api/generated/end-users/end-users';
import { errorMessage } from '../../api/http';
import { allOf, inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { FormModal } from '../../components/FormModal';
import { useToast } from '../../components/Toast';

export function AddUserModal({ open, onClose, projectId }: { open: boolean; onClose: () => void; projectId: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddAuthUser(inlineError);
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
          await queryClient.invalidateQueries({ queryKey: allOf(getListAuthUsersQueryKey(projectId)) });
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <FormModal
      open={open}
      onClose={close}
      title="Add User"
      formId="add-user-form"
      formClassName="form"
      onSubmit={onSubmit}
      busy={add.isPending}
      submitLabel="Add User"
      busyLabel="Adding..."
    >
      <TextField label="Email" type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField
        label="Password"
        type="password"
        required
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError message={error} />
    </FormModal>
  );
}
