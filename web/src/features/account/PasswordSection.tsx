import { useState, type FormEvent } from 'react';
import { useChangePassword } from '../../api/generated/accounts/accounts';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { useToast } from '../../components/Toast';
import { setSession } from '../../lib/session';
import { NewPasswordFields } from '../auth/NewPasswordFields';

export function PasswordSection({ email, name }: { email: string; name: string }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useChangePassword(inlineError);
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
        <NewPasswordFields password={next} confirm={confirm} onPassword={setNext} onConfirm={setConfirm} userInputs={[email, name]} />
        <FormError message={error} />
        <div>
          <button type="submit" className="btn btn-primary" disabled={change.isPending}>
            {change.isPending ? 'Updating...' : 'Update password'}
          </button>
        </div>
      </form>
    </section>
  );
}
