import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useResetPassword } from '../../api/generated/accounts/accounts';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { PasswordStrength } from './PasswordStrength';

export default function ResetPassword() {
  usePageTitle('Choose a new password');
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const reset = useResetPassword(inlineError);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (password !== confirm) {
      setError('Passwords do not match');
      return;
    }
    reset.mutate(
      { token, data: { password } },
      { onSuccess: () => setDone(true), onError: (err) => setError(errorMessage(err)) },
    );
  }

  if (done) {
    return (
      <AuthCard title="Password updated">
        <div className="auth-done" role="status">
          <span className="auth-done-icon">
            <Icon name="check" size={28} />
          </span>
          <p>Your password has been changed. You can now sign in with the new password.</p>
        </div>
        <Link to="/auth/login" className="btn btn-primary btn-block">
          Sign in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle="Enter a new password for your account.">
      <form className="form" onSubmit={onSubmit}>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <TextField label="New password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <PasswordStrength password={password} />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <button type="submit" className="btn btn-primary btn-block" disabled={reset.isPending || !token}>
          {reset.isPending ? 'Saving...' : 'Set new password'}
        </button>
      </form>
      <p className="auth-alt">
        <Link to="/auth/forgot-password">Request a new link</Link> · <Link to="/auth/login">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
