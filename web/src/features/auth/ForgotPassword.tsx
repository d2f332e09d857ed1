import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useForgotPassword } from '../../api/generated/accounts/accounts';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { AuthNotice } from './AuthNotice';
import { deviceTokenField } from './deviceToken';

export default function ForgotPassword() {
  usePageTitle('Forgot password');
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const forgot = useForgotPassword(inlineError);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const address = email.trim();
    forgot.mutate(
      { data: { email: address, ...deviceTokenField(address) } },
      {
        onSuccess: (res) => {
          if (res.message === true) setSentTo(address);
          else setError('We could not send a reset link. Please try again.');
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  if (sentTo) {
    return (
      <AuthCard title="Check your email">
        <AuthNotice icon="mail">We&apos;ve sent a password reset link to <strong>{sentTo}</strong></AuthNotice>
        <Link to="/auth/login" className="btn btn-secondary btn-block">
          <Icon name="arrowLeft" /> Back to sign in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" subtitle="Enter your email and we will send you a reset link.">
      <form className="form" onSubmit={onSubmit}>
        <FormError message={error} />
        <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <button type="submit" className="btn btn-primary btn-block" disabled={forgot.isPending}>
          {forgot.isPending ? 'Sending...' : 'Send reset link'}
        </button>
      </form>
      <p className="auth-alt">
        <Link to="/auth/login">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}
