import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  getAccountDetails,
  useChangePassword,
  useGetAccountDetails,
  useSendEmailVerification,
  useToggleMfa,
} from '../../api/generated/accounts/accounts';
import type { Account, MfaToggleAnswer } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { CopyButton } from '../../components/CopyButton';
import { TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { QrCode } from '../../components/QrCode';
import { ErrorState, Loading } from '../../components/States';
import { Pill } from '../../components/StatusBadge';
import { useToast } from '../../components/Toast';
import { formatDate } from '../../lib/format';
import { setSession } from '../../lib/session';
import { usePageTitle } from '../../lib/usePageTitle';
import { MfaCodeInput, emptyCode } from '../auth/MfaCodeInput';
import { PasswordStrength } from '../auth/PasswordStrength';

const ACCOUNT_KEY = ['/account-details'];

function Switch({ label, checked, onChange, disabled, description }: { label: string; checked: boolean; onChange: (v: boolean) => void; disabled?: boolean; description?: string }) {
  const id = useId();
  return (
    <div className="switch-row">
      <div>
        <p className="switch-label" id={`${id}-label`}>
          {label}
        </p>
        {description && <p className="muted">{description}</p>}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        className={`switch${checked ? ' is-on' : ''}`}
        onClick={() => onChange(!checked)}
        disabled={disabled}
      >
        <span className="switch-thumb" />
      </button>
    </div>
  );
}

function Profile({ account }: { account: Account }) {
  const [name, setName] = useState(account.name);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();
  const save = useMutation({
    mutationFn: (newName: string) => getAccountDetails({ name: newName }),
    onSuccess: (acc) => {
      queryClient.setQueryData([...ACCOUNT_KEY, undefined], acc);
      toast.success('Profile updated');
    },
    onError: (err) => setError(errorMessage(err)),
  });
  const resend = useSendEmailVerification();
  useEffect(() => setName(account.name), [account.name]);

  return (
    <section className="card panel" aria-labelledby="profile-title">
      <h2 id="profile-title" className="panel-title">Profile</h2>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          if (name.trim()) save.mutate(name.trim());
        }}
      >
        <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
        <TextField label="Email" type="email" value={account.email} readOnly hint={`Member since ${formatDate(account.created_at)}`} />
        <div className="inline-flex">
          {account.email_verified ? (
            <Pill tone="green">email verified</Pill>
          ) : (
            <>
              <Pill tone="yellow">email not verified</Pill>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                disabled={resend.isPending}
                onClick={() =>
                  resend.mutate(undefined, {
                    onSuccess: () => toast.success('Verification email sent', account.email),
                    onError: (err) => toast.error('Could not send the verification email', errorMessage(err)),
                  })
                }
              >
                {resend.isPending ? 'Sending...' : 'Resend verification email'}
              </button>
            </>
          )}
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !name.trim() || name.trim() === account.name}>
            {save.isPending ? 'Saving...' : 'Save changes'}
          </button>
        </div>
      </form>
    </section>
  );
}

function ChangePassword({ email, name }: { email: string; name: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useChangePassword();
  const toast = useToast();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (next !== confirm) return setError('Passwords do not match');
    change.mutate(
      { data: { current_password: current, new_password: next } },
      {
        onSuccess: (res) => {
          if (res.token) setSession(res.token, email);
          setCurrent('');
          setNext('');
          setConfirm('');
          toast.success('Password changed', 'Other sessions were signed out.');
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby="password-title">
      <h2 id="password-title" className="panel-title">Change password</h2>
      <form className="form" onSubmit={onSubmit}>
        <TextField label="Current password" type="password" required autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" required autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        <PasswordStrength password={next} userInputs={[email, name]} />
        <TextField label="Confirm new password" type="password" required autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div>
          <button type="submit" className="btn btn-primary" disabled={change.isPending}>
            {change.isPending ? 'Updating...' : 'Update password'}
          </button>
        </div>
      </form>
    </section>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  return (
    <div className="recovery" role="status">
      <p>
        <strong>Two-factor authentication is on.</strong> Save these recovery codes somewhere safe. Each one signs you in once if
        you lose your authenticator. They are shown only now.
      </p>
      <ul className="recovery-codes">
        {codes.map((c) => (
          <li key={c} className="mono">
            {c}
          </li>
        ))}
      </ul>
      <div className="inline-flex">
        <CopyButton value={text} label="recovery codes" className="btn btn-secondary btn-sm" text="Copy codes" />
        <a className="btn btn-secondary btn-sm" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`} download="hostbase-recovery-codes.txt">
          <Icon name="download" size={16} /> Download
        </a>
        <button type="button" className="btn btn-primary btn-sm" onClick={onDone}>
          I saved them
        </button>
      </div>
    </div>
  );
}

function TwoFactor({ account }: { account: Account }) {
  const [enrollment, setEnrollment] = useState<MfaToggleAnswer | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [digits, setDigits] = useState<string[]>(emptyCode);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const toggle = useToggleMfa();
  const queryClient = useQueryClient();
  const toast = useToast();

  const refresh = () => queryClient.invalidateQueries({ queryKey: ACCOUNT_KEY });

  function reset() {
    setEnrollment(null);
    setDisabling(false);
    setDigits(emptyCode());
    setRecoveryCode('');
    setError(null);
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
        onError: (err) => {
          setError(errorMessage(err));
          setDigits(emptyCode());
        },
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
        onError: (err) => {
          setError(errorMessage(err));
          setDigits(emptyCode());
        },
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
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="inline-flex">
            <button type="submit" className="btn btn-primary" disabled={toggle.isPending}>
              {toggle.isPending ? 'Verifying...' : 'Turn on'}
            </button>
            <button type="button" className="btn btn-secondary" onClick={reset} disabled={toggle.isPending}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {disabling && enabled && (
        <form className="form mfa-setup" onSubmit={submitDisable}>
          <p>Enter a code from your authenticator app to turn two-factor authentication off.</p>
          <MfaCodeInput value={digits} onChange={setDigits} autoFocus={false} disabled={toggle.isPending} />
          <TextField label="Or a recovery code" value={recoveryCode} onChange={(e) => setRecoveryCode(e.target.value)} autoComplete="off" spellCheck={false} />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="inline-flex">
            <button type="submit" className="btn btn-danger" disabled={toggle.isPending}>
              {toggle.isPending ? 'Turning off...' : 'Turn off'}
            </button>
            <button type="button" className="btn btn-secondary" onClick={reset} disabled={toggle.isPending}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && !enrollment && !disabling && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function usePref(key: string, initial: boolean): [boolean, (v: boolean) => void] {
  const [v, setV] = useState(() => {
    try {
      const s = localStorage.getItem(key);
      return s === null ? initial : s === 'true';
    } catch {
      return initial;
    }
  });
  return [
    v,
    (next) => {
      setV(next);
      try {
        localStorage.setItem(key, String(next));
      } catch {
        /* storage unavailable */
      }
    },
  ];
}

function Notifications() {
  const [emailOn, setEmailOn] = usePref('pref_email_notifications', true);
  const [pushOn, setPushOn] = usePref('pref_push_notifications', false);
  return (
    <section className="card panel" aria-labelledby="notif-title">
      <h2 id="notif-title" className="panel-title">Notifications</h2>
      <p className="muted">Saved on this device.</p>
      <Switch label="Email notifications" description="Deployments, quota warnings and security alerts." checked={emailOn} onChange={setEmailOn} />
      <Switch label="Push notifications" description="Alerts in this browser." checked={pushOn} onChange={setPushOn} />
    </section>
  );
}

function Billing({ plan }: { plan: Account['plan'] }) {
  return (
    <section className="card panel" aria-labelledby="billing-title">
      <h2 id="billing-title" className="panel-title">Billing</h2>
      <p>
        Current plan: <strong className="capitalize">{plan}</strong>
      </p>
      <p className="muted">Plan changes and invoices are handled with our team for now.</p>
      <Link to="/pricing" className="btn btn-secondary">
        Manage Billing
      </Link>
    </section>
  );
}

export default function AccountPage() {
  usePageTitle('Settings');
  const account = useGetAccountDetails();
  return (
    <div className="console-page narrow">
      <PageHeader title="Settings" description="Your profile, password, two-factor authentication and notifications." />
      {account.isPending ? (
        <Loading label="Loading your account..." />
      ) : account.isError ? (
        <ErrorState title="Could not load your account" error={account.error} onRetry={() => account.refetch()} />
      ) : (
        <div className="stack">
          <Profile account={account.data} />
          <ChangePassword email={account.data.email} name={account.data.name} />
          <TwoFactor account={account.data} />
          <Notifications />
          <Billing plan={account.data.plan} />
        </div>
      )}
    </div>
  );
}
