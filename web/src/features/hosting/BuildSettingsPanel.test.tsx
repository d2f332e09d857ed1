import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { BuildSettingsPanel } from './BuildSettingsPanel';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const READ = '/api/project/p1/hosting/build-settings';
const SET = '/api/project/p1/hosting/build-settings/set';
const limits = { timeout_seconds: 900, memory_mb: 2048, disk_mb: 4096 };
const empty = { root_directory: null, install_command: null, build_command: null, start_command: null, output_directory: null };

it('shows the settings and the limits, saves them (empty = detected) and shows a refusal with the server\'s message', async () => {
  let stored: Record<string, string | null> = { ...empty, build_command: 'npm run build:prod' };
  const sent: unknown[] = [];
  mockFetch((path, body) => {
    if (path === READ) return { body: { ...stored, limits } };
    if (path === SET) {
      sent.push(body);
      const b = body as Record<string, string | null>;
      if (b.root_directory?.includes('..')) return { status: 400, body: { message: `The root directory must stay inside the upload (no "..": got "${b.root_directory}").`, code: 'BAD_REQUEST' } };
      stored = { ...empty, ...b };
      return { body: { message: 'Build settings saved; they apply to the next deployment.', settings: { ...stored, limits } } };
    }
    return { status: 404, body: { message: 'Not Found' } };
  });
  renderWithProviders(<BuildSettingsPanel projectId="p1" />);

  const build = (await screen.findByLabelText('Build command')) as HTMLInputElement;
  expect(build.value).toBe('npm run build:prod');
  expect((screen.getByLabelText('Root directory') as HTMLInputElement).value).toBe('');
  expect(screen.getByText('Replaces npm run build (also makes a Static upload build).')).toBeTruthy();
  for (const label of ['Install command', 'Start command', 'Output directory']) expect(screen.getByLabelText(label)).toBeTruthy();
  expect(screen.getByText(/15 min, 2.00 GiB of memory and 4.00 GiB of disk per build/)).toBeTruthy();
  // The limits are information, not fields.
  expect(screen.queryByDisplayValue('900')).toBeNull();

  fireEvent.change(screen.getByLabelText('Output directory'), { target: { value: ' dist/app/browser ' } });
  fireEvent.change(build, { target: { value: '' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save build settings' }));
  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toEqual({ ...empty, output_directory: 'dist/app/browser' });
  await waitFor(() => expect((screen.getByLabelText('Output directory') as HTMLInputElement).value).toBe('dist/app/browser'));
  expect((screen.getByLabelText('Build command') as HTMLInputElement).value).toBe('');

  fireEvent.change(screen.getByLabelText('Root directory'), { target: { value: '../secrets' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save build settings' }));
  expect((await screen.findByRole('alert')).textContent).toBe('The root directory must stay inside the upload (no "..": got "../secrets").');
  expect((screen.getByLabelText('Root directory') as HTMLInputElement).value).toBe('../secrets');
});
