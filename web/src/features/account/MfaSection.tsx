import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getGetAccountDetailsQueryKey, useToggleMfa } from '../../api/generated/accounts/accounts';
import type { Account, MfaToggleAnswer } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { allOf, inlineError } from '../../api/queryClient';
import { CopyButton } from '../../components/CopyButton';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { QrCode } from '../../components/QrCode';
import { useToast } from '../../components/Toast';
import { MfaCodeInput, emptyCode } from '../auth/MfaCodeInput';
import { RecoveryCodes } from './RecoveryCodes';
import { Switch } from './Switch';

/** The error, then the submit and Cancel buttons of the turn-on and turn-off forms. */
function MfaFormEnd({ error, busy, danger, label, busyLabel, onCancel }: { error: string | null; busy: boolean; danger?: boolean; label: string; busyLabel: string; onCancel: () => void }) {
  return (
    <>
      <FormError message={error} />
      <div className="inline-flex">
        <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={busy}>
          {busy ? busyLabel : label}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </>
  );
}

/** Two-factor authentication: enrol (QR code, secret, first code), recovery codes, and turning it off. */
export function MfaSection({ account }: { account: Account }) {
  const [enrollment, setEnrollment] = useState<MfaToggleAnswer | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [digits, setDigits] = useState<string[]>(emptyCode);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toggle = useToggleMfa(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = () => queryClient.invalidateQueries({ queryKey: allOf(getGetAccountDetailsQueryKey()) });

  function reset() {
    setEnrollment(null);
    setDisabling(false);
    setDigits(emptyCode());
    setRecoveryCode('');
    setError(null);
  }

  function failed(err: unknown) {
    setError(errorMessage(err));
    setDigits(emptyCode());
  }

  function onSwitch(on: boolean) {
    setError(null);
    if (on) {
      toggle.mutate(
        { data: { action: 'enroll' } },
        { onSuccess: (res) => setEnrollment(res), onError: (err) => setError(errorMessage(err)) },
      );
    } else {
      setDisabling(true);
    }
  }

  function submitEnable(e: FormEvent) {
    e.preventDefault();
    const code = digits.join('');
    if (!/^\d{6}$/.test(code)) return setError('Enter the 6-digit code from your authenticator app.');
    toggle.mutate(
      { data: { action: 'enable', mfa_code: code } },
      {
        onSuccess: async (res) => {
          reset();
          setCodes(res.recovery_codes ?? []);
          toast.success('Two-factor authentication enabled');
          await refresh();
        },
        onError: failed,
      },
    );
  }

  function submitDisable(e: FormEvent) {
    e.preventDefault();
    const code = recoveryCode.trim() || digits.join('');
    if (!code) return setError('Enter a code from your authenticator app or a recovery code.');
    toggle.mutate(
      { data: { action: 'disable', mfa_code: code } },
      {
        onSuccess: async () => {
          reset();
          toast.success('Two-factor authentication disabled');
          await refresh();
        },
        onError: failed,
      },
    );
  }

  const enabled = account.mfa_enabled;
  return (
    <section className="card panel" aria-labelledby="mfa-title">
      <h2 id="mfa-title" className="panel-title">Security</h2>
      <Switch
        label="Two-factor authentication"
        description="Ask for a code from an authenticator app when you sign in."
        checked={enabled || !!enrollment}
        onChange={onSwitch}
        disabled={toggle.isPending || !!enrollment || disabling}
      />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {enrollment && !enabled && (
        <form className="form mfa-setup" onSubmit={submitEnable}>
          <p>1. Scan this QR code with your authenticator app (or enter the secret by hand).</p>
          <div className="mfa-setup-row">
            {enrollment.otpauth_url && <QrCode value={enrollment.otpauth_url} label="QR code for your authenticator app" />}
            {enrollment.secret && (
              <div>
                <p className="field-label">Secret</p>
                <p className="inline-flex">
                  <code className="mono secret">{enrollment.secret}</code>
                  <CopyButton value={enrollment.secret} label="secret" />
                </p>
              </div>
            )}
          </div>
          <p>2. Enter the 6-digit code it shows.</p>
          <MfaCodeInput value={digits} onChange={setDigits} autoFocus={false} disabled={toggle.isPending} />
          <MfaFormEnd error={error} busy={toggle.isPending} label="Turn on" busyLabel="Verifying..." onCancel={reset} />
        </form>
      )}
      {disabling && enabled && (
        <form className="form mfa-setup" onSubmit={submitDisable}>
          <p>Enter a code from your authenticator app to turn two-factor authentication off.</p>
          <MfaCodeInput value={digits} onChange={setDigits} autoFocus={false} disabled={toggle.isPending} />
          <TextField label="Or a recovery code" value={recoveryCode} onChange={(e) => setRecoveryCode(e.target.value)} autoComplete="off" spellCheck={false} />
          <MfaFormEnd error={error} busy={toggle.isPending} danger label="Turn off" busyLabel="Turning off..." onCancel={reset} />
        </form>
      )}
      {!enrollment && !disabling && <FormError message={error} />}
    </section>
  );
}
