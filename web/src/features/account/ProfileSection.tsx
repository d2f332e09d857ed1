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
  const [email, setEmail] = useState(account.email);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const nameChanged = name.trim() !== account.name;
  const emailChanged = email.trim().toLowerCase() !== account.email.toLowerCase();
  const save = useMutation({
    mutationFn: () => getAccountDetails({ ...(nameChanged ? { name: name.trim() } : {}), ...(emailChanged ? { email: email.trim() } : {}) }),
    onSuccess: (acc) => {
      queryClient.setQueryData(getGetAccountDetailsQueryKey(), acc);
      if (emailChanged) {
        // The address counts once its link is opened: the field shows the current one until then.
        setEmail(acc.email);
        toast.success('Check your new inbox', `We sent a confirmation link to ${acc.pending_email ?? email.trim()}.`);
      } else toast.success('Profile updated');
    },
    onError: (err) => setError(errorMessage(err)),
    meta: { errorToast: false },
  });
  const resend = useSendEmailVerification({ mutation: { meta: { errorToast: 'Could not send the verification email' } } });
  useEffect(() => setName(account.name), [account.name]);
  useEffect(() => setEmail(account.email), [account.email]);

  return (
    <section className="card panel" aria-labelledby="profile-title">
      <h2 id="profile-title" className="panel-title">Profile</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          if (name.trim() && email.trim()) save.mutate();
        }}
      >
        <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
        <TextField
          label="Email"
          type="email"
          required
          maxLength={254}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoComplete="email"
          hint={`Member since ${formatDate(account.created_at)}. A new address is used once you open the link we mail to it.`}
        />
        {account.pending_email && (
          <p className="muted" role="status">
            Waiting for confirmation: we sent a link to <strong>{account.pending_email}</strong>. Your account keeps {account.email} until it is opened.
          </p>
        )}
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
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !name.trim() || !email.trim() || (!nameChanged && !emailChanged)}>
            {save.isPending ? 'Saving...' : 'Save changes'}
          </button>
        </div>
      </form>
    </section>
  );
}
