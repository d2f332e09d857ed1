// /auth/end-user/reset-password?token=… : an end user of a project chooses a new password.
// POST /api/auth/v1/reset {token, password}; no API key: the token names the project.
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useEndUserResetPassword } from '../../api/generated/end-user-auth/end-user-auth';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { END_USER_PASSWORD_MIN, validateNewPassword } from '../../lib/validation';
import { AuthCard } from '../auth/AuthLayout';
import { PasswordStrength } from '../auth/PasswordStrength';
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
        <div className="auth-done" role="status">
          <span className="auth-done-icon">
            <Icon name="check" size={28} />
          </span>
          <p>{RESET_DONE_TEXT}</p>
        </div>
      </AuthCard>
    );
  }

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <div className="auth-done" role="alert">
          <span className="auth-done-icon auth-done-error">
            <Icon name="alert" size={28} />
          </span>
          <p>{RESET_LINK_INCOMPLETE}</p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle="Enter a new password for your account.">
      <form className="form" onSubmit={onSubmit} noValidate>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={END_USER_PASSWORD_MIN}
          hint={`At least ${END_USER_PASSWORD_MIN} characters.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <PasswordStrength password={password} />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={reset.isPending}>
          {reset.isPending ? 'Saving...' : 'Set new password'}
        </button>
      </form>
    </AuthCard>
  );
}
