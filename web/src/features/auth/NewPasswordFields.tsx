// "New password", its strength meter and "Confirm new password": the block every password-setting form shares.
import type { ReactNode } from 'react';
import { TextField } from '../../components/Field';
import { PasswordStrength } from './PasswordStrength';

export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  userInputs,
  minLength,
  hint,
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  /** Words the meter counts as guessable (the user's name and email). */
  userInputs?: string[];
  minLength?: number;
  hint?: ReactNode;
}) {
  return (
    <>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        hint={hint}
        value={password}
        onChange={(e) => onPassword(e.target.value)}
      />
      <PasswordStrength password={password} userInputs={userInputs} />
      <TextField label="Confirm new password" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => onConfirm(e.target.value)} />
    </>
  );
}
