// A strength meter under a new-password field (sign-up, reset, change). The estimator (zxcvbn-ts
// and its word lists) is fetched with import() when a screen showing the meter mounts, never with
// the landing page. The server's rules decide; the meter only helps choose.
import { useEffect, useMemo, useState } from 'react';
import type { Strength } from './strength';
import './strength.css';

type Estimate = (password: string, userInputs?: string[]) => Strength;

let loading: Promise<Estimate> | undefined;
export function loadEstimator(): Promise<Estimate> {
  loading ??= import('./strength').then((m) => m.estimate);
  loading.catch(() => {
    loading = undefined; // a failed chunk load may be retried on the next screen
  });
  return loading;
}

export const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;

export function PasswordStrength({ password, userInputs = [] }: { password: string; userInputs?: (string | null | undefined)[] }) {
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  useEffect(() => {
    let live = true;
    loadEstimator()
      .then((fn) => live && setEstimate(() => fn))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const inputs = userInputs.filter((s): s is string => !!s && s.trim().length > 0);
  const inputsKey = inputs.join('\n');
  const result = useMemo(
    () => (estimate && password ? estimate(password, inputsKey ? inputsKey.split('\n') : []) : null),
    [estimate, password, inputsKey],
  );
  if (!result) return null;
  const label = STRENGTH_LABELS[result.score];
  return (
    <div className="strength" data-score={result.score}>
      <div className="strength-bar" role="meter" aria-label="Strength" aria-valuemin={0} aria-valuemax={4} aria-valuenow={result.score} aria-valuetext={label}>
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={step <= Math.max(1, result.score) ? 'strength-step on' : 'strength-step'} />
        ))}
      </div>
      <p className="field-hint strength-text" data-testid="password-strength">
        <strong>{label}</strong>
        {result.feedback ? ` · ${result.feedback}` : ''}
      </p>
    </div>
  );
}
