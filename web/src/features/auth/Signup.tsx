import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useRegisterAccount } from '../../api/generated/accounts/accounts';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { setSession } from '../../lib/session';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';
import { CredentialsFields } from './CredentialsFields';
import { PasswordStrength } from './PasswordStrength';
import { keepDeviceToken } from './deviceToken';

export default function Signup() {
  usePageTitle('Create account');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const register = useRegisterAccount(inlineError);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const address = email.trim();
    register.mutate(
      { data: { name: name.trim(), email: address, password } },
      {
        onSuccess: (res) => {
          if (res.token) {
            keepDeviceToken(address, res.device_token);
            setSession(res.token, address);
            navigate('/console');
          } else setError(res.message || 'Sign up failed');
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <AuthCard title="Create your account" subtitle="Start building with Hostbase in minutes.">
      <form className="form" onSubmit={onSubmit}>
        <FormError message={error} />
        <TextField label="Full name" name="name" autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        <CredentialsFields email={email} password={password} onEmail={setEmail} onPassword={setPassword} newPassword />
        <PasswordStrength password={password} userInputs={[email, name]} />
        <button type="submit" className="btn btn-primary btn-block" disabled={register.isPending}>
          {register.isPending ? 'Creating account...' : 'Create account'}
        </button>
      </form>
      <p className="auth-alt">
        Already have an account? <Link to="/auth/login">Sign in</Link>
      </p>
    </AuthCard>
  );
}
