// Six one-digit boxes: typing advances, Backspace in an empty box goes back,
// pasting a 6-digit code fills every box.
import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';

export const MFA_LENGTH = 6;

export function MfaCodeInput({
  value,
  onChange,
  disabled = false,
  autoFocus = true,
  invalid = false,
}: {
  value: string[];
  onChange: (digits: string[]) => void;
  disabled?: boolean;
  autoFocus?: boolean;
  invalid?: boolean;
}) {
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const focus = (i: number) => {
    const el = refs.current[Math.max(0, Math.min(MFA_LENGTH - 1, i))];
    el?.focus();
    el?.select();
  };

  function fillFrom(start: number, digits: string) {
    const next = [...value];
    for (let k = 0; k < digits.length && start + k < MFA_LENGTH; k++) next[start + k] = digits[k];
    onChange(next);
    focus(Math.min(MFA_LENGTH - 1, start + digits.length));
  }

  function onInput(i: number, raw: string) {
    const digits = raw.replace(/\D/g, '');
    if (digits.length === 0) {
      const next = [...value];
      next[i] = '';
      onChange(next);
      return;
    }
    if (digits.length >= MFA_LENGTH) {
      // Autofill of the whole code (one-time-code) lands in one box.
      fillFrom(0, digits.slice(0, MFA_LENGTH));
      return;
    }
    // Typing over a filled box: keep the new digit.
    const old = value[i];
    const digit = digits.length > 1 && digits[0] === old ? digits[digits.length - 1] : digits[0];
    if (digits.length > 2) {
      fillFrom(i, digits);
      return;
    }
    const next = [...value];
    next[i] = digit;
    onChange(next);
    if (i < MFA_LENGTH - 1) focus(i + 1);
  }

  function onKeyDown(i: number, e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Backspace' && !value[i] && i > 0) {
      e.preventDefault();
      focus(i - 1);
    } else if (e.key === 'ArrowLeft' && i > 0) {
      e.preventDefault();
      focus(i - 1);
    } else if (e.key === 'ArrowRight' && i < MFA_LENGTH - 1) {
      e.preventDefault();
      focus(i + 1);
    }
  }

  function onPaste(i: number, e: ClipboardEvent<HTMLInputElement>) {
    const digits = e.clipboardData.getData('text').replace(/\D/g, '');
    e.preventDefault();
    if (!digits) return;
    if (digits.length >= MFA_LENGTH) fillFrom(0, digits.slice(0, MFA_LENGTH));
    else fillFrom(i, digits);
  }

  return (
    <div className="mfa-boxes" role="group" aria-label="Verification code">
      {Array.from({ length: MFA_LENGTH }, (_, i) => (
        <input
          key={i}
          ref={(el) => {
            refs.current[i] = el;
          }}
          className="mfa-box"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          aria-label={`Digit ${i + 1} of ${MFA_LENGTH}`}
          aria-invalid={invalid || undefined}
          value={value[i] ?? ''}
          disabled={disabled}
          autoFocus={autoFocus && i === 0}
          onChange={(e) => onInput(i, e.target.value)}
          onKeyDown={(e) => onKeyDown(i, e)}
          onPaste={(e) => onPaste(i, e)}
          onFocus={(e) => e.target.select()}
        />
      ))}
    </div>
  );
}

export const emptyCode = () => Array.from({ length: MFA_LENGTH }, () => '');
