// The site's build settings: overrides of what a build from source detects (an empty field means
// "detected"), saved for the next deployment, and the platform's build limits, read-only.
// getBuildSettings is a POST that only reads; orval makes it a mutation, so it is queried here.
import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getBuildSettings, getGetBuildSettingsUrl, useSetBuildSettings } from '../../api/generated/hosting/hosting';
import type { BuildSettings, BuildSettingsInput, BuildSettingsLimits } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { TextField } from '../../components/Field';
import { FormError } from '../../components/FormError';
import { ErrorState, Loading } from '../../components/States';
import { useToast } from '../../components/Toast';
import { formatSize } from '../../lib/format';

export const buildSettingsQueryKey = (projectId: string) => [getGetBuildSettingsUrl(projectId)] as const;

type Field = keyof BuildSettingsInput;

/** The fields in the order a build uses them, each with what it replaces (the contract's words). */
export const BUILD_FIELDS: { name: Field; label: string; hint: string; placeholder: string; folder?: boolean }[] = [
  { name: 'root_directory', label: 'Root directory', hint: 'The folder of the upload that holds the app (a monorepo’s apps/web).', placeholder: 'apps/web', folder: true },
  { name: 'install_command', label: 'Install command', hint: 'Replaces npm ci / npm install, the virtualenv’s pip install or composer install.', placeholder: 'npm ci' },
  { name: 'build_command', label: 'Build command', hint: 'Replaces npm run build (also makes a Static upload build).', placeholder: 'npm run build' },
  { name: 'start_command', label: 'Start command', hint: 'Node sites: the command that serves the app on $PORT (replaces scripts.start or the main file).', placeholder: 'node server.js' },
  { name: 'output_directory', label: 'Output directory', hint: 'Static builds: the folder the build writes (dist, build, out, …), relative to the root directory.', placeholder: 'dist', folder: true },
];

function duration(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

export function limitsText(l: BuildSettingsLimits): string {
  // The contract counts both in MiB.
  return `${duration(l.timeout_seconds)}, ${formatSize(l.memory_mb * 1048576)} of memory and ${formatSize(l.disk_mb * 1048576)} of disk per build`;
}

function SettingsForm({ projectId, settings }: { projectId: string; settings: BuildSettings }) {
  const [values, setValues] = useState<Record<Field, string>>(() => Object.fromEntries(BUILD_FIELDS.map((f) => [f.name, settings[f.name] ?? ''])) as Record<Field, string>);
  const [error, setError] = useState<string | null>(null);
  const save = useSetBuildSettings(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    // An empty field goes back to what the build detects.
    const data = Object.fromEntries(BUILD_FIELDS.map((f) => [f.name, values[f.name].trim() || null])) as BuildSettingsInput;
    save.mutate(
      { projectId, data },
      {
        onSuccess: (res) => {
          toast.success(res.message);
          queryClient.setQueryData(buildSettingsQueryKey(projectId), res.settings);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} aria-label="Build settings">
      {BUILD_FIELDS.map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          hint={f.hint}
          value={values[f.name]}
          onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
          placeholder={`Detected (e.g. ${f.placeholder})`}
          autoComplete="off"
          spellCheck={false}
          maxLength={f.folder ? 256 : 1024}
        />
      ))}
      <p className="muted">
        Build limits: {limitsText(settings.limits)}. A build past one stops and fails, and the live site stays as it was.
      </p>
      <FormError message={error} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save build settings'}
        </button>
      </div>
    </form>
  );
}

export function BuildSettingsPanel({ projectId }: { projectId: string }) {
  const settings = useQuery({
    queryKey: buildSettingsQueryKey(projectId),
    queryFn: ({ signal }) => getBuildSettings(projectId, { signal }),
    enabled: !!projectId,
  });

  return (
    <section className="card panel" aria-labelledby="build-settings-title">
      <h2 id="build-settings-title" className="panel-title">Build settings</h2>
      <p className="muted">How an upload of source code is built. Leave a field empty to use what is detected; changes apply to the next deployment.</p>
      {settings.isPending ? (
        <Loading label="Loading build settings..." />
      ) : settings.isError ? (
        <ErrorState title="Could not load the build settings" error={settings.error} onRetry={() => settings.refetch()} />
      ) : (
        <SettingsForm key={JSON.stringify(settings.data)} projectId={projectId} settings={settings.data} />
      )}
    </section>
  );
}
