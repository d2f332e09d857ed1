import { Link } from 'react-router-dom';
import { getToken } from '../../lib/session';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { AuthNotice } from './AuthNotice';

export default function EmailVerified() {
  usePageTitle('Email verified');
  const signedIn = !!getToken();
  return (
    <AuthCard title="Email verified">
      <AuthNotice icon="check">Thank you. Your email address has been confirmed.</AuthNotice>
      <Link to={signedIn ? '/console' : '/auth/login'} className="btn btn-primary btn-block">
        {signedIn ? 'Go to the console' : 'Sign in'}
      </Link>
    </AuthCard>
  );
}
