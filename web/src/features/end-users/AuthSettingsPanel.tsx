// The project's end-user auth settings (POST /project/{id}/auth/settings, operation
// updateAuthSettings: an empty body reads them, given fields are updated first) and how an app
// reaches the app-side API (/api/auth/v1) with the publishable key.
import { useId, useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { getUpdateAuthSettingsUrl, updateAuthSettings, useUpdateAuthSettings } from '../../api/generated/end-users/end-users';
import type { AuthSettings } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { CopyButton } from '../../components/CopyButton';
import { TextArea, TextField } from '../../components/Field';
import { ErrorState, Loading } from '../../components/States';
import { useToast } from '../../components/Toast';
import { EXAMPLE_ORIGIN, parseOrigins, validateSiteUrl } from '../../lib/validation';

export const authSettingsQueryKey = (projectId: string) => [getUpdateAuthSettingsUrl(projectId)] as const;

/** The app-side API base of this platform, as an app outside the browser console calls it. */
export function appApiBase(origin = window.location.origin): string {
  return `${origin}/api/auth/v1`;
}

export function signInSnippet(base: string): string {
  return [
    `curl -X POST ${base}/signin \\`,
    `  -H 'X-Hostbase-Key: <publishable key>' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '{"email":"user@example.com","password":"their-password"}'`,
  ].join('\n');
}

function AppApiInfo({ projectId }: { projectId: string }) {
  const base = appApiBase();
  const snippet = signInSnippet(base);
  const id = useId();
  return (
    <div className="settings-block">
      <h3 className="section-label">App API</h3>
      <p className="muted settings-text">
        Your app signs users up and in through this API with the project&apos;s publishable key in the{' '}
        <code>X-Hostbase-Key</code> header (find it on the <Link to={`/project/${encodeURIComponent(projectId)}/connect`}>Connect</Link>{' '}
        screen, with ready-made snippets).
      </p>
      <div className="field">
        <label htmlFor={`${id}-base`}>App API base URL</label>
        <div className="copy-line">
          <code id={`${id}-base`} className="key-value" data-testid="app-api-base">
            {base}
          </code>
          <CopyButton value={base} label="App API base URL" />
        </div>
      </div>
      <div className="snippet">
        <div className="snippet-head">
          <span className="muted">Sign in with curl</span>
          <CopyButton value={snippet} label="sign-in example" />
        </div>
        <pre className="log-box snippet-code">{snippet}</pre>
      </div>
    </div>
  );
}

function SettingsForm({ projectId, settings }: { projectId: string; settings: AuthSettings }) {
  const [origins, setOrigins] = useState(settings.allowed_origins.join('\n'));
  const [siteUrl, setSiteUrl] = useState(settings.site_url ?? '');
  const [blockCommon, setBlockCommon] = useState(settings.block_common_passwords ?? true);
  const blockCommonId = useId();
  const [originsError, setOriginsError] = useState<string | null>(null);
  const [siteUrlError, setSiteUrlError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useUpdateAuthSettings(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const parsed = parseOrigins(origins);
    const urlError = validateSiteUrl(siteUrl);
    setOriginsError(parsed.error);
    setSiteUrlError(urlError);
    if (parsed.error !== null || urlError) return;
    save.mutate(
      { projectId, data: { allowed_origins: parsed.origins, site_url: siteUrl.trim() || null, block_common_passwords: blockCommon } },
      {
        onSuccess: (saved) => {
          toast.success('Settings saved');
          // The form remounts with the server's (normalized) values.
          queryClient.setQueryData(authSettingsQueryKey(projectId), saved);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <form className="form settings-block" onSubmit={onSubmit} noValidate aria-label="Authentication settings">
      <TextArea
        label="Allowed CORS origins"
        rows={4}
        spellCheck={false}
        autoCapitalize="off"
        placeholder={`${EXAMPLE_ORIGIN}\nhttp://localhost:5173`}
        value={origins}
        error={originsError}
        onChange={(e) => setOrigins(e.target.value)}
        hint={
          <>
            One origin per line, like <code>{EXAMPLE_ORIGIN}</code> (scheme, host and optional port; no path). The app APIs
            (auth, storage, database rows and live changes) are closed to browsers by default: web pages can call them only
            from the origins listed here. Servers and mobile apps are not affected.
          </>
        }
      />
      <TextField
        label="Site URL"
        type="url"
        spellCheck={false}
        autoCapitalize="off"
        placeholder={EXAMPLE_ORIGIN}
        value={siteUrl}
        error={siteUrlError}
        onChange={(e) => setSiteUrl(e.target.value)}
        hint={
          <>
            Password reset and email verification mails to your users link to <code>{'{site URL}'}/reset-password?token=…</code> and{' '}
            <code>{'{site URL}'}/verify-email?token=…</code> in your app. Leave it empty to use the pages hosted by Hostbase.
          </>
        }
      />
      <div className="field">
        <label className="checkbox" htmlFor={blockCommonId}>
          <input
            id={blockCommonId}
            type="checkbox"
            checked={blockCommon}
            aria-describedby={`${blockCommonId}-hint`}
            onChange={(e) => setBlockCommon(e.target.checked)}
          />{' '}
          Refuse guessable passwords
        </label>
        <p id={`${blockCommonId}-hint`} className="field-hint">
          Your users&apos; passwords must not be one of the 10,000 most common passwords nor contain their email address. Every
          password needs at least 8 characters either way.
        </p>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}

export function AuthSettingsPanel({ projectId }: { projectId: string }) {
  const settings = useQuery({
    queryKey: authSettingsQueryKey(projectId),
    queryFn: ({ signal }) => updateAuthSettings(projectId, undefined, { signal }),
    enabled: !!projectId,
  });

  return (
    <section className="card panel auth-settings" aria-labelledby="auth-settings-title">
      <h2 id="auth-settings-title" className="panel-title">
        Settings
      </h2>
      <div className="settings-grid">
        {settings.isPending ? (
          <Loading label="Loading settings..." />
        ) : settings.isError ? (
          <ErrorState title="Could not load settings" error={settings.error} onRetry={() => settings.refetch()} />
        ) : (
          <SettingsForm
            key={JSON.stringify(settings.data)}
            projectId={projectId}
            settings={settings.data}
          />
        )}
        <AppApiInfo projectId={projectId} />
      </div>
    </section>
  );
}
