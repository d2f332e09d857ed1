import { useState, type FormEvent } from 'react';
import { useAddSmtpAccount } from '../../api/generated/mail/mail';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { useToast } from '../../components/Toast';
import { mailboxUsername, validateMailboxPassword, validateMailboxUsername } from '../../lib/validation';
import { MAIL_MESSAGES, mailboxFailure } from './mail';

export function AddMailboxForm({ projectId, domain, existing, onAdded }: { projectId: string; domain: string; existing: string[]; onAdded: () => Promise<unknown> }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const add = useAddSmtpAccount(inlineError);
  const toast = useToast();

  function onAdd(e: FormEvent) {
    e.preventDefault();
    const bad = validateMailboxUsername(username, existing, domain) ?? validateMailboxPassword(password);
    if (bad) return setFormError(bad);
    setFormError(null);
    const user = mailboxUsername(username);
    add.mutate(
      { projectId, data: { email: user, domain, password } },
      {
        onSuccess: async () => {
          toast.success('Mailbox created', `${user}@${domain}`);
          setUsername('');
          setPassword('');
          await onAdded();
        },
        onError: (err) => setFormError(mailboxFailure(MAIL_MESSAGES.createAccount, err)),
      },
    );
  }

  return (
    <form className="form add-mailbox" onSubmit={onAdd} noValidate aria-labelledby="add-mailbox-title">
      <h3 id="add-mailbox-title">Add mailbox</h3>
      <div className="form-grid">
        <TextField
          id="mailbox-username"
          label="Username"
          suffix={`@${domain}`}
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            setFormError(null);
          }}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setFormError(null);
          }}
          hint="At least 8 characters with upper and lower case letters, a number and one of ! @ # $ % ^ & *"
        />
      </div>
      <FormError message={formError} />
      <button type="submit" className="btn btn-primary" disabled={!username.trim() || !password || add.isPending}>
        {add.isPending ? 'Creating...' : 'Create Account'}
      </button>
    </form>
  );
}
