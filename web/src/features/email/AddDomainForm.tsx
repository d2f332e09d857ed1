import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAddSmtpDomain } from '../../api/generated/smtp/smtp';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { useToast } from '../../components/Toast';
import { validateDomain } from '../../lib/validation';
import { domainDetailsKey, MAIL_MESSAGES } from './mail';

export function AddDomainForm({ projectId }: { projectId: string }) {
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSmtpDomain(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const invalid = validateDomain(domain);
    if (invalid) return setError(invalid);
    setError(null);
    add.mutate(
      { projectId, data: { domain: domain.trim().toLowerCase() } },
      {
        onSuccess: async (res) => {
          if (res.message === 'added') {
            toast.success('Domain added', 'Add the DNS records below, then verify.');
            await queryClient.invalidateQueries({ queryKey: domainDetailsKey(projectId) });
          } else setError(res.message || MAIL_MESSAGES.somethingWrong);
        },
        onError: (err) => setError(errorMessage(err, MAIL_MESSAGES.somethingWrong)),
      },
    );
  }

  return (
    <section className="card panel" aria-labelledby="add-domain-title">
      <h2 id="add-domain-title" className="panel-title">Add Domain</h2>
      <p className="muted">Send and receive mail as you@yourdomain. You can configure one custom domain per project.</p>
      <form className="form form-inline" onSubmit={onSubmit} noValidate>
        <TextField
          label="Domain name"
          placeholder="example.com"
          value={domain}
          onChange={(e) => {
            setDomain(e.target.value);
            setError(null);
          }}
          error={error}
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add Domain'}
        </button>
      </form>
    </section>
  );
}
