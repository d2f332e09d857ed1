import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useAddSmtpDomain } from '../../api/generated/mail/mail';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { InlineAddForm } from '../../components/InlineAddForm';
import { useToast } from '../../components/Toast';
import { validateDomain } from '../../lib/validation';
import { domainDetailsKey, MAIL_MESSAGES } from './mail';

export function AddDomainForm({ projectId }: { projectId: string }) {
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddSmtpDomain(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  function onSubmit() {
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
      <InlineAddForm
        label="Domain name"
        placeholder="example.com"
        value={domain}
        error={error}
        pending={add.isPending}
        submitLabel="Add Domain"
        onChange={(value) => {
          setDomain(value);
          setError(null);
        }}
        onSubmit={onSubmit}
      />
    </section>
  );
}
