import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useLoginAccount } from '../../api/generated/accounts/accounts';
import { ApiError } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { FormError } from '../../components/FormError';
import { setMfaPending, setSession, clearMfaPending } from '../../lib/session';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { CredentialsFields } from './CredentialsFields';
import { deviceTokenField, keepDeviceToken } from './deviceToken';

export default function Login() {
  usePageTitle('Sign in');
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const login = useLoginAccount(inlineError);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const address = email.trim();
    login.mutate(
      { data: { email: address, password, remember, ...deviceTokenField(address) } },
      {
        onSuccess: (res) => {
          if (res.message === 'mfa') {
            setMfaPending(address, res.mfa_token);
            navigate('/auth/mfa');
          } else if (res.token) {
            clearMfaPending();
            keepDeviceToken(address, res.device_token);
            setSession(res.token, address);
            navigate('/dashboard');
          } else {
            setError(res.message || 'Login failed');
          }
        },
        onError: (err) => setError(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Login failed'),
      },
    );
  }

  return (
    <AuthCard title="Sign in to Hostbase" subtitle="Welcome back. Enter your details to continue.">
      <form className="form" onSubmit={onSubmit}>
        <FormError message={error} />
        <CredentialsFields email={email} password={password} onEmail={setEmail} onPassword={setPassword} />
        <div className="form-row">
          <label className="checkbox">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember me
          </label>
          <Link to="/auth/forgot-password">Forgot password?</Link>
        </div>
        <button type="submit" className="btn btn-primary btn-block" disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
      <p className="auth-alt">
        Don&apos;t have an account? <Link to="/auth/signup">Sign up</Link>
      </p>
    </AuthCard>
  );
}
