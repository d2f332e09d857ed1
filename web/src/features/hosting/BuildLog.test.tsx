import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useListDeployments } from '../../api/generated/hosting/hosting';
import type { Deployment } from '../../api/generated/model';
import { fakeStream, mockFetch, renderWithProviders, type FakeStream } from '../../test/utils';
import { DeployModal } from './DeployModal';
import { DeploymentsPanel } from './DeploymentsPanel';
import { RedeployModal } from './RedeployModal';
import { BUILD_NOTE } from './useZipDeploy';

const realXhr = globalThis.XMLHttpRequest;
beforeEach(() => localStorage.setItem('token', 'dev-token'));
afterEach(() => {
  globalThis.XMLHttpRequest = realXhr;
});

const LIST = '/api/project/p1/deployments';
const STREAM = '/api/project/p1/deployments/d2/log-stream';
const at = '2026-11-25T02:00:00.000Z';
const deployment = (over: Partial<Deployment>): Deployment => ({ id: 'd2', project_id: 'p1', type: 'Vite', status: 'building', live: false, size_bytes: 2048, file_count: 12, error: null, framework: 'Vite', created_at: at, ...over });
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function Harness() {
  const deployments = useListDeployments('p1');
  return <DeploymentsPanel projectId="p1" domain="shop.hostbase.test" deployments={deployments} onDeploy={() => undefined} />;
}

/** A deployments list that answers `current()`, and a build log stream per connection. */
function fakeServer(current: () => Deployment[]) {
  const streams: FakeStream[] = [];
  const calls: string[] = [];
  mockFetch((path) => {
    calls.push(path);
    if (path === LIST) return { body: { deployments: current(), live_deployment_id: null } };
    if (path === STREAM) {
      streams.push(fakeStream());
      return { stream: streams[streams.length - 1] };
    }
    return { status: 404, body: { message: 'Not Found' } };
  });
  return { streams, calls };
}

it('Follow build shows the log as it comes, then Live, and the list refreshes with the framework', async () => {
  let rows = [deployment({ type: 'React', framework: null }), deployment({ id: 'd1', type: 'Static', status: 'live', live: true, framework: null })];
  const server = fakeServer(() => rows);
  renderWithProviders(<Harness />);
  expect(await screen.findAllByText('as uploaded')).toHaveLength(2);
  expect(screen.getAllByRole('button', { name: 'Follow build' })).toHaveLength(1);
  fireEvent.click(screen.getByRole('button', { name: 'Follow build' }));

  const dialog = await screen.findByRole('dialog', { name: 'Build' });
  const log = within(dialog).getByRole('log');
  expect(log.getAttribute('aria-live')).toBe('polite');
  await waitFor(() => expect(server.streams).toHaveLength(1));
  const stream = server.streams[0];
  const first = frame('log', { text: 'Detected Vite (package.json: vite, scripts.build)\n' }) + frame('log', { text: '$ npm ci\n' });
  act(() => stream.send(first + frame('log', { text: 'added 41 packages\n' }).slice(0, 9)));
  await waitFor(() => expect(log.textContent).toBe('Detected Vite (package.json: vite, scripts.build)\n$ npm ci\n'));
  expect(within(dialog).getByText('Building...')).toBeTruthy();

  rows = [deployment({ type: 'React', status: 'live', live: true, framework: 'Vite' }), { ...rows[1], live: false, status: 'superseded' }];
  const listCalls = server.calls.filter((c) => c === LIST).length;
  act(() => {
    stream.send(frame('log', { text: 'added 41 packages\n' }).slice(9) + frame('end', { status: 'live', error: null }));
    stream.end();
  });
  expect(await within(dialog).findByText('Live')).toBeTruthy();
  expect(log.textContent).toContain('added 41 packages\n');
  await waitFor(() => expect(server.calls.filter((c) => c === LIST).length).toBeGreaterThan(listCalls));
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Follow build' })).toBeNull());
  expect(screen.getByText('Vite', { selector: 'td' }).getAttribute('data-label')).toBe('Framework');
  expect(screen.getAllByText('as uploaded')).toHaveLength(1);
});

it('a failed build shows the server\'s reason; a stream that breaks off can be reconnected', async () => {
  const server = fakeServer(() => [deployment({})]);
  renderWithProviders(<Harness />);
  fireEvent.click(await screen.findByRole('button', { name: 'Follow build' }));
  const dialog = await screen.findByRole('dialog', { name: 'Build' });
  await waitFor(() => expect(server.streams).toHaveLength(1));
  act(() => {
    server.streams[0].send(frame('log', { text: 'partial' }));
    server.streams[0].end();
  });
  expect((await within(dialog).findByRole('alert')).textContent).toMatch(/closed before the build ended/);
  fireEvent.click(within(dialog).getByRole('button', { name: 'Reconnect' }));
  await waitFor(() => expect(server.streams).toHaveLength(2));
  // The new connection replays the log from its first line.
  act(() => server.streams[1].send(frame('log', { text: 'npm run build\n' }) + frame('end', { status: 'failed', error: 'npm run build exited with code 1' })));
  await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('npm run build exited with code 1'));
  expect(within(dialog).getByRole('log').textContent).toBe('npm run build\n');
  expect(within(dialog).getByText('The live site stays as it was.')).toBeTruthy();
});

/** XMLHttpRequest (the upload's transport, for its progress) answering `status` with `body`. */
function fakeUpload(status: number, body: unknown) {
  const sent: FormData[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress?: (e: ProgressEvent) => void } = {};
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    open() {}
    setRequestHeader() {}
    abort() {}
    send(form: FormData) {
      sent.push(form);
      setTimeout(() => {
        this.status = status;
        this.responseText = JSON.stringify(body);
        this.onload?.();
      });
    }
  }
  (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = FakeXhr;
  return sent;
}

it('a deploy of source code (202) closes the form and follows the build it started', async () => {
  const server = fakeServer(() => [deployment({})]);
  const sent = fakeUpload(202, { message: 'Build started: Detected Vite (package.json: vite, scripts.build)', deployment: deployment({}), site_url: 'http://shop.hostbase.test:3000' });
  let open = true;
  renderWithProviders(<RedeployModal open={open} onClose={() => (open = false)} projectId="p1" domain="shop.hostbase.test" first={false} />);
  const form = screen.getByRole('dialog', { name: 'Redeploy' });
  expect(within(form).getByText(BUILD_NOTE)).toBeTruthy();
  fireEvent.click(within(form).getByLabelText('Vite'));
  const zip = new File(['PK'], 'shop.zip', { type: 'application/zip' });
  fireEvent.change(form.querySelector('input[type="file"]')!, { target: { files: [zip] } });
  fireEvent.click(within(form).getByRole('button', { name: 'Deploy' }));

  const dialog = await screen.findByRole('dialog', { name: 'Build' });
  expect(within(dialog).getByText('Build started: Detected Vite (package.json: vite, scripts.build)')).toBeTruthy();
  expect(open).toBe(false);
  expect(sent[0].get('type')).toBe('Vite');
  await waitFor(() => expect(server.streams).toHaveLength(1));
  act(() => server.streams[0].send(frame('log', { text: 'vite v6 building for production...\n' }) + frame('end', { status: 'live', error: null })));
  expect(await within(dialog).findByText('Live')).toBeTruthy();
  expect(within(dialog).getByRole('log').textContent).toBe('vite v6 building for production...\n');
  // The log ends with the live site's address, from the deploy's answer.
  expect(within(dialog).getByRole('link', { name: 'Visit http://shop.hostbase.test:3000' }).getAttribute('href')).toBe('http://shop.hostbase.test:3000');
});

it('both deploy forms offer every type: the spec\'s first, in its order, then the rest', async () => {
  mockFetch((path) => (path === '/api/projects' ? { body: [] } : { status: 404, body: { message: 'Not Found' } }));
  const consoleForm = renderWithProviders(<DeployModal open onClose={() => undefined} />);
  const select = screen.getByLabelText('Framework') as HTMLSelectElement;
  expect([...select.options].map((o) => o.value)).toEqual(['React', 'Next.js', 'Vue', 'Astro', 'Static', 'PHP', 'Node.js', 'Vite', 'Angular', 'Flask']);
  expect(screen.getByText(BUILD_NOTE)).toBeTruthy();
  consoleForm.unmount();

  renderWithProviders(<RedeployModal open onClose={() => undefined} projectId="p1" domain="shop.hostbase.test" first={false} />);
  const types = within(screen.getByRole('group', { name: 'Project type' })).getAllByRole('radio') as HTMLInputElement[];
  // Detection first and chosen: a type picked by hand overrides it.
  expect(types.map((r) => r.value)).toEqual(['auto', 'Node', 'PHP', 'React', 'Vite', 'Angular', 'Flask', 'Next.js', 'Vue', 'Astro', 'Static']);
  expect(types[0].checked).toBe(true);
  expect(screen.getByLabelText('Detect automatically')).toBe(types[0]);
});

it('a built upload deployed with the default type sends "auto" and toasts a link to the live site', async () => {
  mockFetch(() => ({ body: { deployments: [], live_deployment_id: null } }));
  const sent = fakeUpload(200, { message: 'Project deployed!', deployment: deployment({ type: 'Static', status: 'live', live: true, framework: null }), site_url: 'http://shop.hostbase.test:3000' });
  renderWithProviders(<RedeployModal open onClose={() => undefined} projectId="p1" domain="shop.hostbase.test" first />);
  const form = screen.getByRole('dialog', { name: 'Deploy site' });
  fireEvent.change(form.querySelector('input[type="file"]')!, { target: { files: [new File(['PK'], 'site.zip', { type: 'application/zip' })] } });
  fireEvent.click(within(form).getByRole('button', { name: 'Deploy' }));
  const link = await screen.findByRole('link', { name: 'Visit http://shop.hostbase.test:3000' });
  expect(link.getAttribute('href')).toBe('http://shop.hostbase.test:3000');
  expect(link.closest('[role="status"]')?.textContent).toContain('File uploaded successfully!');
  expect(sent[0].get('type')).toBe('auto');
});
