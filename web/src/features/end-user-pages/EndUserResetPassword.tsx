// /auth/end-user/reset-password?token=… : an end user of a project chooses a new password.
// POST /api/auth/v1/reset {token, password}; no API key: the token names the project.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useEndUserResetPassword } from '../../api/generated/end-user-auth/end-user-auth';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { FormError } from '../../components/FormError';
import { END_USER_PASSWORD_MIN, validateNewPassword } from '../../lib/validation';
import { AuthCard } from '../auth/AuthLayout';
import { AuthNotice } from '../auth/AuthNotice';
import { NewPasswordFields } from '../auth/NewPasswordFields';
import { useEndUserTitle } from './EndUserLayout';

export const RESET_DONE_TEXT = 'Your password has been changed. You can sign in to the app with your new password.';
export const RESET_LINK_INCOMPLETE = 'This reset link is incomplete. Open the link from the email again, or ask the app for a new one.';

export default function EndUserResetPassword() {
  useEndUserTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const reset = useEndUserResetPassword(inlineError);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const invalid = validateNewPassword(password, confirm);
    if (invalid) {
      setError(invalid);
      return;
    }
    reset.mutate(
      { data: { token, password } },
      { onSuccess: () => setDone(true), onError: (err) => setError(errorMessage(err)) },
    );
  }

  if (done) {
    return (
      <AuthCard title="Password changed">
        <AuthNotice icon="check">{RESET_DONE_TEXT}</AuthNotice>
      </AuthCard>
    );
  }

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <AuthNotice icon="alert" error>{RESET_LINK_INCOMPLETE}</AuthNotice>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle="Enter a new password for your account.">
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormError message={error} />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          minLength={END_USER_PASSWORD_MIN}
          hint={`At least ${END_USER_PASSWORD_MIN} characters.`}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={reset.isPending}>
          {reset.isPending ? 'Saving...' : 'Set new password'}
        </button>
      </form>
    </AuthCard>
  );
}
