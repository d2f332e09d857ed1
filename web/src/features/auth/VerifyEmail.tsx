import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { confirmEmail } from '../../api/generated/accounts/accounts';
import { errorMessage } from '../../api/http';
import { Loading } from '../../components/States';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { AuthNotice } from './AuthNotice';

const INVALID = 'This verification link is invalid or has expired.';
const TAKEN = 'An account with this email already exists.';

export default function VerifyEmail() {
  usePageTitle('Verify email');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const linkError = params.get('error');
  const [error, setError] = useState<string | null>(
    linkError === 'taken' ? TAKEN : linkError ? INVALID : token ? null : 'This verification link is incomplete.',
  );
  const started = useRef(false);

  useEffect(() => {
    if (!token || linkError || started.current) return;
    started.current = true;
    confirmEmail({ token })
      .then((res) => {
        if (res.message === 'verified') navigate('/email-verified', { replace: true });
        else setError(res.message || INVALID);
      })
      .catch((err) => setError(errorMessage(err)));
  }, [token, linkError, navigate]);

  if (!error) {
    return (
      <AuthCard title="Verifying your email">
        <Loading label="Verifying your email..." />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Email not verified">
      <AuthNotice icon="alert" error>{error}</AuthNotice>
      <p className="auth-alt">
        Sign in and open <Link to="/console/account">Settings</Link> to send a new verification email.
      </p>
    </AuthCard>
  );
}
