// /auth/end-user/verify-email?token=… : confirms an end user's address on load.
// POST /api/auth/v1/verify {token}; no API key: the token names the project.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { endUserConfirmEmail } from '../../api/generated/end-user-auth/end-user-auth';
import { errorMessage } from '../../api/http';
import { Loading } from '../../components/States';
import { AuthCard } from '../auth/AuthLayout';
import { AuthNotice } from '../auth/AuthNotice';
import { useEndUserTitle } from './EndUserLayout';

export const VERIFIED_TEXT = 'Thank you. Your email address has been confirmed; you can return to the app.';
export const VERIFY_LINK_INCOMPLETE = 'This verification link is incomplete. Open the link from the email again.';
const NOT_VERIFIED = 'This verification link is invalid or has expired.';

type State = { kind: 'checking' } | { kind: 'verified' } | { kind: 'failed'; message: string };

export default function EndUserVerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [state, setState] = useState<State>(token ? { kind: 'checking' } : { kind: 'failed', message: VERIFY_LINK_INCOMPLETE });
  // The token is single-use: confirm it once, even when effects run twice (StrictMode).
  const started = useRef(false);
  useEndUserTitle(state.kind === 'verified' ? 'Email verified' : 'Verify email');

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    endUserConfirmEmail({ token })
      .then((res) => setState(res.message === 'verified' ? { kind: 'verified' } : { kind: 'failed', message: res.message || NOT_VERIFIED }))
      .catch((err) => setState({ kind: 'failed', message: errorMessage(err) }));
  }, [token]);

  if (state.kind === 'checking') {
    return (
      <AuthCard title="Verifying your email">
        <Loading label="Verifying your email..." />
      </AuthCard>
    );
  }
  if (state.kind === 'verified') {
    return (
      <AuthCard title="Email verified">
        <AuthNotice icon="check">{VERIFIED_TEXT}</AuthNotice>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Email not verified">
      <AuthNotice icon="alert" error>{state.message}</AuthNotice>
    </AuthCard>
  );
}
