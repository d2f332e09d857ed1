import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getAccountDetails, getGetAccountDetailsQueryKey, useSendEmailVerification } from '../../api/generated/accounts/accounts';
import type { Account } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';

export function ProfileSection({ account }: { account: Account }) {
  const [name, setName] = useState(account.name);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: (newName: string) => getAccountDetails({ name: newName }),
    onSuccess: (acc) => {
      queryClient.setQueryData(getGetAccountDetailsQueryKey(), acc);
      toast.success('Profile updated');
    },
    onError: (err) => setError(errorMessage(err)),
    meta: { errorToast: false },
  });
  const resend = useSendEmailVerification({ mutation: { meta: { errorToast: 'Could not send the verification email' } } });
  useEffect(() => setName(account.name), [account.name]);

  return (
    <section className="card panel" aria-labelledby="profile-title">
      <h2 id="profile-title" className="panel-title">Profile</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          if (name.trim()) save.mutate(name.trim());
        }}
      >
        <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
        <TextField label="Email" type="email" value={account.email} readOnly hint={`Member since ${formatDate(account.created_at)}`} />
        <div className="inline-flex">
          {account.email_verified ? (
            <Pill tone="green">email verified</Pill>
          ) : (
            <>
              <Pill tone="yellow">email not verified</Pill>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={resend.isPending}
                onClick={() => resend.mutate(undefined, { onSuccess: () => toast.success('Verification email sent', account.email) })}
              >
                {resend.isPending ? 'Sending...' : 'Resend verification email'}
              </button>
            </>
          )}
        </div>
        <FormError message={error} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !name.trim() || name.trim() === account.name}>
            {save.isPending ? 'Saving...' : 'Save changes'}
          </button>
        </div>
      </form>
    </section>
  );
}
