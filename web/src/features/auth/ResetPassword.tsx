import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useResetPassword } from '../../api/generated/accounts/accounts';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { FormError } from '../../components/FormError';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { AuthNotice } from './AuthNotice';
import { NewPasswordFields } from './NewPasswordFields';

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
        <AuthNotice icon="check">Your password has been changed. You can now sign in with the new password.</AuthNotice>
        <Link to="/auth/login" className="btn btn-primary btn-block">
          Sign in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" subtitle="Enter a new password for your account.">
      <form className="form" onSubmit={onSubmit}>
        <FormError message={error} />
        <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} />
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
