// The email and password fields of signing in and signing up (named for password managers).
import { TextField } from '../../components/Field';

export function CredentialsFields({
  email,
  password,
  onEmail,
  onPassword,
  newPassword = false,
}: {
  email: string;
  password: string;
  onEmail: (value: string) => void;
  onPassword: (value: string) => void;
  /** Sign-up: the browser offers to generate a password instead of filling a saved one. */
  newPassword?: boolean;
}) {
  return (
    <>
      <TextField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => onEmail(e.target.value)} />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete={newPassword ? 'new-password' : 'current-password'}
        required
        value={password}
        onChange={(e) => onPassword(e.target.value)}
      />
    </>
  );
}
