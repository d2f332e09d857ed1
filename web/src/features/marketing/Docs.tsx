import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { CopyButton } from '../../components/CopyButton';
import { Icon, type IconName } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { authSamples, databaseSamples, emailSamples, hostingSamples, storageSamples, type Sample } from './docs-samples';

const TOPICS: { icon: IconName; title: string; text: string; href: string }[] = [
  { icon: 'rocket', title: 'Getting Started', text: 'Create a project and make your first call.', href: '#introduction' },
  { icon: 'book', title: 'API Reference', text: 'Every endpoint, generated from the OpenAPI contract.', href: '/api/docs' },
  { icon: 'terminal', title: 'CLI Tools', text: 'Deploy a folder, list projects and follow logs with the hostbase command.', href: '#cli' },
  { icon: 'code', title: 'SDKs', text: '@hostbase/client for browsers and Node: auth, storage, database.', href: '#sdk' },
];

const SECTIONS = ['Introduction', 'Authentication', 'Database', 'Storage', 'Hosting', 'Security'];
const MORE = [
  { id: 'email', title: 'Email' },
  { id: 'sdk', title: 'JavaScript SDK' },
  { id: 'cli', title: 'CLI' },
  { id: 'running', title: 'Running Hostbase' },
];

/** The guides for whoever runs a platform (docs/ in the repository, served beside this page by the build). */
const GUIDES: { file: string; title: string; text: string }[] = [
  { file: 'configuration', title: 'Configuration', text: 'Every setting, from the port and the data folder to S3, mail and payments.' },
  { file: 'security', title: 'Security', text: 'The sandbox of hosted code, sign-in throttling, headers, tokens and the limits the platform enforces.' },
  { file: 'api', title: 'The API by hand', text: 'curl examples, app keys, file access rules, signed links and the project database.' },
  { file: 'sdk', title: 'JavaScript client', text: 'Installing @hostbase/client, a first app in six lines, and its errors.' },
  { file: 'cli', title: 'The hostbase command', text: 'Sign in, link a folder, deploy it, logs and site variables; --json and exit codes.' },
  { file: 'hosting', title: 'Hosting', text: 'Deploys, builds from source, redirects and headers, custom domains and certificates.' },
  { file: 'mail', title: 'Hosted e-mail', text: 'Setting up Postfix, Dovecot and OpenDKIM against the platform, DKIM keys and project mail.' },
  { file: 'instances', title: 'Several instances', text: 'Running more than one instance: where sites run, what is shared, how an instance stops.' },
  { file: 'backup', title: 'Backing up and moving a project', text: 'One archive per project, exported and imported by a command.' },
  { file: 'operations', title: 'Operations', text: 'Starting, object storage, Docker and Kubernetes files.' },
  { file: 'development', title: 'Development', text: 'Code layout, the contract, every command and the benches.' },
];

/** A code sample in several forms (SDK, curl), one shown at a time, with a copy button. */
function CodeTabs({ name, samples }: { name: string; samples: Sample[] }) {
  const [shown, setShown] = useState(0);
  const id = useId();
  const sample = samples[shown];
  return (
    <div className="code-tabs">
      <div className="code-tabs-bar">
        <div role="tablist" aria-label={`${name} example`}>
          {samples.map((s, i) => (
            <button
              key={s.label}
              type="button"
              role="tab"
              id={`${id}-tab-${i}`}
              aria-selected={i === shown}
              aria-controls={`${id}-panel`}
              className={`code-tab${i === shown ? ' is-active' : ''}`}
              onClick={() => setShown(i)}
            >
              {s.label}
            </button>
          ))}
        </div>
        <CopyButton value={sample.code} label={`${name} ${sample.label} example`} className="code-copy" text="Copy" />
      </div>
      <pre role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${shown}`}>
        <code>{sample.code}</code>
      </pre>
    </div>
  );
}

export default function Docs() {
  usePageTitle('Documentation');
  // The same text on the server-rendered page and at hydration; then this platform's own address.
  const [origin, setOrigin] = useState('https://your-hostbase.example');
  useEffect(() => setOrigin(window.location.origin), []);
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
          <div className="docs-sidebar-inner">
            <ul>
              {SECTIONS.map((s) => (
                <li key={s}>
                  <a href={`#${s.toLowerCase()}`}>{s}</a>
                </li>
              ))}
            </ul>
            <ul className="docs-sidebar-more" aria-label="More">
              {MORE.map((s) => (
                <li key={s.id}>
                  <a href={`#${s.id}`}>{s.title}</a>
                </li>
              ))}
            </ul>
          </div>
        </nav>
        <article className="docs-article prose">
          <h2 id="introduction">Quick start</h2>
          <ol>
            <li>
              <Link to="/auth/signup">Create an account</Link> and open the <Link to="/console">console</Link>.
            </li>
            <li>Create a project and pick a subdomain. Your project gets its own bucket, authentication service and database.</li>
            <li>
              Open <strong>API Keys</strong> to copy the project&apos;s keys. The <strong>publishable key</strong> is safe in a
              web page (the project&apos;s access rules decide what it may do); the <strong>secret key</strong> stays on your server.
            </li>
            <li>
              Call the API from your app with <code>@hostbase/client</code>, or from anywhere with curl: every call below is
              shown both ways. The API is at <code>{origin}/api</code>.
            </li>
          </ol>

          <h2 id="authentication">Basic usage: authentication</h2>
          <p>
            Sign your app&apos;s users up and in. An access token lasts an hour; the refresh token gets a new pair and
            works once. The SDK keeps the session and refreshes it for you.
          </p>
          <CodeTabs name="Authentication" samples={authSamples(origin)} />

          <h2 id="database">Database</h2>
          <p>
            Every project gets a managed PostgreSQL database. Create tables in the console&apos;s Database page and give
            each an access rule: <code>read</code>, <code>signed_in</code>, <code>owner</code> (each user sees only their own
            rows) or none. Then read and write rows from your app:
          </p>
          <CodeTabs name="Database" samples={databaseSamples(origin)} />

          <h2 id="storage">Storage</h2>
          <p>
            Upload files with progress, list them, download and delete them; folder access rules decide who sees what. Files are
            private: to show one in a page, ask for a signed URL. It lasts an hour unless you ask for less (at most a day on this
            platform by default) and is checked at every download, so changing the folder&apos;s rule, removing the user or deleting
            the file ends it at once. A file is public only when you share it from the console or put it in a folder you mark
            public.
          </p>
          <CodeTabs name="Storage" samples={storageSamples(origin)} />

          <h2 id="hosting">Hosting</h2>
          <p>
            Deploy a folder (for example your built <code>dist</code>) as the project&apos;s site: static sites, Node, PHP
            and Flask. Earlier deployments stay available for rollback on the project&apos;s Hosting page.
          </p>
          <CodeTabs name="Hosting" samples={hostingSamples(origin)} />

          <h2 id="email">Email</h2>
          <p>
            Add your domain on the project&apos;s Email page, publish the DNS records it shows (MX, SPF, DKIM, DMARC) and
            verify it. Then create mailboxes, and your users&apos; verification and reset mails come from your domain.
          </p>
          <CodeTabs name="Email" samples={emailSamples(origin)} />

          <h2 id="sdk">JavaScript SDK</h2>
          <p>
            <code>@hostbase/client</code> works in browsers and Node 20, as ESM or CommonJS with TypeScript types generated
            from the API contract, and has no dependencies. It keeps the end user&apos;s session, uploads with progress and builds database queries.
          </p>
          <pre>
            <code>{`# until it is published: npm run pack in a Hostbase checkout, then
npm install /path/to/hostbase/dist/packages/hostbase-client-0.1.0.tgz

import { createClient, HostbaseError } from '@hostbase/client';
const hb = createClient('${origin}', 'hb_publishable_…');

try {
  await hb.auth.signIn({ email, password });
} catch (err) {
  if (err instanceof HostbaseError && err.status === 401) showError('Wrong e-mail or password');
  else throw err;
}`}</code>
          </pre>
          <p>
            In a page without a bundler, serve the package&apos;s <code>dist/index.js</code> with your site and import it from a{' '}
            <code>{'<script type="module">'}</code>. A page on another origin must be listed in the project&apos;s allowed
            origins (Authentication settings). Any other language works with plain HTTP and JSON: see the{' '}
            <a href="/api/docs">API reference</a>.
          </p>

          <h2 id="cli">CLI</h2>
          <p>
            The <code>hostbase</code> command is the <code>@hostbase/cli</code> package (in a Hostbase checkout,{' '}
            <code>npx hostbase</code>; elsewhere, install its tarball from <code>npm run pack</code>): sign in, link a folder
            to a project, deploy it and follow its logs. Every command takes <code>--json</code>.
          </p>
          <pre>
            <code>{`npx hostbase login --url ${origin}
npx hostbase projects --json
npx hostbase deploy ./dist --project todo-app      # --type Static, Node, PHP, Flask… (guessed when absent)
npx hostbase logs --project todo-app --follow
npx hostbase logout`}</code>
          </pre>
          <p>
            Without a terminal, <code>HOSTBASE_PASSWORD</code> and <code>HOSTBASE_MFA_CODE</code> answer the prompts, so it runs
            in CI.
          </p>

          <h2 id="security">Security</h2>
          <ul>
            <li>Ship only the publishable key in a web page; keep the secret key on your server or in environment variables.</li>
            <li>Give every table and folder your app uses an access rule; a table without one is closed to apps.</li>
            <li>
              Show private files through short-lived signed URLs; share a file or mark a folder public only for what anyone may
              read. Stop sharing from the Storage page: the old link answers 404 at once.
            </li>
            <li>List your app&apos;s origins in the project&apos;s Authentication settings; other pages get no CORS grant.</li>
            <li>Rotate keys from the console&apos;s API Keys page; the old key stops working at once.</li>
            <li>Turn on two-factor authentication for your account in Settings.</li>
          </ul>
          <p>
            The complete API reference is at <a href="/api/docs">/api/docs</a>.
          </p>

          <h2 id="running">Running Hostbase</h2>
          <p>
            Hostbase is open source. On a fresh machine with Node 20, <code>npm start</code> sets up and serves the whole
            platform and <code>npm test</code> runs its tests. The guides for whoever runs one:
          </p>
          <ul>
            {GUIDES.map((g) => (
              <li key={g.file}>
                <a href={`/docs/${g.file}.md`}>{g.title}</a>: {g.text}
              </li>
            ))}
          </ul>
        </article>
      </div>
    </div>
  );
}
