import { useState, type FormEvent } from 'react';
import { useSubmitContactMessage } from '../../api/generated/contact/contact';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextArea, TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { OFFICE, SUPPORT_EMAIL, SUPPORT_HOURS } from './content';
import { usePageTitle } from '../../lib/usePageTitle';

export default function Contact() {
  usePageTitle('Contact');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = useSubmitContactMessage(inlineError);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    send.mutate(
      { data: { name: name.trim(), email: email.trim(), message: message.trim() } },
      {
        onSuccess: () => {
          setResult({ ok: true, text: 'Message sent' });
          setName('');
          setEmail('');
          setMessage('');
        },
        onError: (err) => setResult({ ok: false, text: errorMessage(err) }),
      },
    );
  }

  return (
    <div className="page container">
      <header className="page-hero">
        <h1>Contact us</h1>
        <p className="section-lead">Questions about Hostbase? We usually answer within one working day.</p>
      </header>
      <div className="contact-grid">
        <form className="card form" onSubmit={onSubmit} noValidate={false}>
          <TextField label="Name" name="name" autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          <TextField label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <TextArea label="Message" name="message" rows={6} required maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
          {result && (
            <p className={result.ok ? 'form-success' : 'form-error'} role={result.ok ? 'status' : 'alert'}>
              {result.text}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send Message'}
          </button>
        </form>
        <aside className="card contact-info" aria-label="Contact information">
          <h2>Contact information</h2>
          <p>
            <Icon name="mail" /> <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </p>
          <p>
            <Icon name="globe" /> Office: {OFFICE}
          </p>
          <h3>Support hours</h3>
          <p>
            <Icon name="clock" /> {SUPPORT_HOURS}
          </p>
        </aside>
      </div>
    </div>
  );
}
