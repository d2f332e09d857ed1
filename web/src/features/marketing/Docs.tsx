import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';

const TOPICS: { icon: IconName; title: string; text: string; href: string }[] = [
  { icon: 'rocket', title: 'Getting Started', text: 'Create a project and make your first call.', href: '#introduction' },
  { icon: 'book', title: 'API Reference', text: 'Every endpoint, generated from the OpenAPI contract.', href: '/api/docs' },
  { icon: 'terminal', title: 'CLI Tools', text: 'Script your projects with curl and the REST API.', href: '#storage' },
  { icon: 'code', title: 'SDKs', text: 'Plain HTTP with JSON works from any language.', href: '#authentication' },
];

const SECTIONS = ['Introduction', 'Authentication', 'Database', 'Storage', 'Hosting', 'Security'];

export default function Docs() {
  usePageTitle('Documentation');
  const origin = typeof window !== 'undefined' ? window.location.origin : 'https://your-host';
  return (
    <div className="page container">
      <header className="page-hero">
        <h1>Documentation</h1>
        <p className="section-lead">Learn how to build with Hostbase.</p>
      </header>
      <div className="card-grid card-grid-4">
        {TOPICS.map((t) => (
          <a key={t.title} href={t.href} className="card topic-card">
            <span className="feature-icon">
              <Icon name={t.icon} size={22} />
            </span>
            <h2>{t.title}</h2>
            <p>{t.text}</p>
          </a>
        ))}
      </div>

      <div className="docs-layout">
        <nav className="docs-sidebar" aria-label="Documentation sections">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s}>
                <a href={`#${s.toLowerCase()}`}>{s}</a>
              </li>
            ))}
          </ul>
        </nav>
        <article className="docs-article prose">
          <h2 id="introduction">Quick start</h2>
          <ol>
            <li>
              <Link to="/auth/signup">Create an account</Link> and open the <Link to="/console">console</Link>.
            </li>
            <li>Create a project and pick a subdomain. Your project gets its own bucket and authentication service.</li>
            <li>
              Open <strong>API Keys</strong> to copy the bucket API key and the authentication API key.
            </li>
          </ol>

          <h2 id="authentication">Basic usage: authentication</h2>
          <p>Sign a user of your app up with the authentication API key:</p>
          <pre>
            <code>{`curl -X POST ${origin}/api/auth/v1/signup \\
  -H "x-api-key: $AUTH_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"email":"ada@example.com","password":"a-long-password"}'`}</code>
          </pre>
          <p>
            The answer holds an <code>access_token</code> and a <code>refresh_token</code>. Refresh the session with{' '}
            <code>/api/auth/v1/refresh</code> and sign out with <code>/api/auth/v1/signout</code>.
          </p>

          <h2 id="database">Database</h2>
          <p>Every project gets a managed database. Table management in the console is in preview.</p>

          <h2 id="storage">Storage</h2>
          <p>Upload a file with the bucket API key, then share its public link:</p>
          <pre>
            <code>{`curl -X POST ${origin}/api/storage/v1/objects \\
  -H "x-api-key: $BUCKET_API_KEY" \\
  -F file=@cat.png`}</code>
          </pre>

          <h2 id="hosting">Hosting</h2>
          <p>
            Zip your built site (for example the <code>dist</code> folder) and upload it from the project&apos;s Hosting
            page. Earlier deployments stay available for rollback.
          </p>

          <h2 id="security">Security</h2>
          <ul>
            <li>Keep API keys on your server or in environment variables; rotate them from the console.</li>
            <li>Turn on two-factor authentication for your account in Settings.</li>
          </ul>
          <p>
            The complete API reference is at <a href="/api/docs">/api/docs</a>.
          </p>
        </article>
      </div>
    </div>
  );
}
