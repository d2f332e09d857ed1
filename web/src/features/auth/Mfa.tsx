import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useVerifyMfaCode } from '../../api/generated/accounts/accounts';
import { ApiError } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { clearMfaPending, getMfaPending, setSession } from '../../lib/session';
import { useLoopingCountdown } from '../../lib/useCountdown';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { deviceTokenField, keepDeviceToken } from './deviceToken';
import { MfaCodeInput, emptyCode } from './MfaCodeInput';

export const MFA_COUNTDOWN_SECONDS = 30;

export const MFA_MESSAGES = {
  invalid: 'Invalid code. Please try again.',
  failed: 'Verification failed. Please try again.',
  missing: 'Email not found or invalid code.',
} as const;

export default function Mfa() {
  usePageTitle('Two-factor authentication');
  const navigate = useNavigate();
  const [digits, setDigits] = useState<string[]>(emptyCode);
  const [recovery, setRecovery] = useState(false);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [seconds, resetCountdown] = useLoopingCountdown(MFA_COUNTDOWN_SECONDS);
  const verify = useVerifyMfaCode(inlineError);
  const { email } = getMfaPending();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const pending = getMfaPending();
    const code = recovery ? recoveryCode.trim() : digits.join('');
    const complete = recovery ? code.length > 0 : /^\d{6}$/.test(code);
    if (!pending.email || !complete) {
      setError(MFA_MESSAGES.missing);
      return;
    }
    verify.mutate(
      { data: { email: pending.email, mfa_code: code, ...(pending.mfaToken ? { mfa_token: pending.mfaToken } : {}), ...deviceTokenField(pending.email) } },
      {
        onSuccess: (res) => {
          if (res.message === 'verified' && res.token) {
            keepDeviceToken(pending.email, res.device_token);
            setSession(res.token, pending.email ?? undefined);
            clearMfaPending();
            navigate('/console');
          } else {
            setError(MFA_MESSAGES.invalid);
            setDigits(emptyCode());
          }
        },
        onError: (err) => {
          const rejected = err instanceof ApiError && (err.status === 400 || err.status === 401);
          setError(rejected ? MFA_MESSAGES.invalid : MFA_MESSAGES.failed);
          setDigits(emptyCode());
        },
      },
    );
  }

  const mm = Math.floor(seconds / 60);
  const ss = String(seconds % 60).padStart(2, '0');

  return (
    <AuthCard
      title="Two-factor authentication"
      subtitle={
        recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication.'
          : 'Enter the 6-digit code from your authenticator app.'
      }
    >
      <form className="form" onSubmit={onSubmit}>
        {email && (
          <p className="mfa-email">
            Signing in as <strong>{email}</strong>
          </p>
        )}
        {recovery ? (
          <TextField
            label="Recovery code"
            name="recovery"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            value={recoveryCode}
            onChange={(e) => setRecoveryCode(e.target.value)}
            autoFocus
          />
        ) : (
          <>
            <MfaCodeInput value={digits} onChange={setDigits} invalid={!!error} disabled={verify.isPending} />
            <p className="mfa-timer" aria-live="off">
              Code refreshes in{' '}
              <span className="mono" data-testid="mfa-countdown">
                {mm}:{ss}
              </span>
            </p>
          </>
        )}
        <FormError message={error} />
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={verify.isPending}
        >
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </button>
      </form>
      <div className="auth-alt mfa-links">
        {!recovery && (
          <button type="button" className="link-btn" onClick={resetCountdown}>
            Didn&apos;t receive a code?
          </button>
        )}
        <button
          type="button"
          className="link-btn"
          onClick={() => {
            setRecovery((r) => !r);
            setError(null);
          }}
        >
          {recovery ? 'Use your authenticator app' : 'Use a recovery code'}
        </button>
        <Link to="/auth/login">Back to sign in</Link>
      </div>
    </AuthCard>
  );
}
