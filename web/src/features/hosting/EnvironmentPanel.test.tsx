import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { EnvironmentPanel } from './EnvironmentPanel';

const limits = { max_variables: 100, max_name_length: 128, max_value_bytes: 32768, max_total_bytes: 65536, reserved: ['PORT', 'PATH', 'NODE_ENV'] };
const at = '2026-11-24T20:15:00.000Z';

it('lists variables with secrets masked, saves a secret and shows a refusal', async () => {
  let variables = [
    { name: 'API_BASE', secret: false, value: 'https://api.example.com', updated_at: at },
    { name: 'STRIPE_KEY', secret: true, value: null, updated_at: at },
  ];
  const sent: unknown[] = [];
  const fetchMock = mockFetch((path, body) => {
    if (path.endsWith('/hosting/env')) return { body: { variables, limits } };
    if (path.endsWith('/hosting/env/set')) {
      sent.push(body);
      const v = (body as { variables: { name: string; secret?: boolean }[] }).variables[0];
      if (v.name === 'PORT') return { status: 400, body: { message: 'PORT is set by the platform for every site and can\u2019t be changed.', code: 'BAD_REQUEST' } };
      variables = [...variables, { name: v.name, secret: !!v.secret, value: null, updated_at: at }];
      return { body: { variables, limits, message: 'Environment saved; the site was restarted with it.', restarted: true } };
    }
    return { status: 404, body: { message: 'no', code: 'NOT_FOUND' } };
  });
  renderWithProviders(<EnvironmentPanel projectId="p1" />);
  expect(await screen.findByText('https://api.example.com')).toBeTruthy();
  expect(screen.getByLabelText('hidden secret value').textContent).toBe('••••••••');

  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'DB_PASSWORD' } });
  fireEvent.click(screen.getByLabelText('Secret'));
  const value = screen.getByLabelText('Value') as HTMLInputElement;
  expect(value.type).toBe('password');
  fireEvent.change(value, { target: { value: 'hunter2' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save variable' }));
  await waitFor(() => expect(screen.getAllByLabelText('hidden secret value')).toHaveLength(2));
  expect(sent[0]).toEqual({ variables: [{ name: 'DB_PASSWORD', value: 'hunter2', secret: true }] });
  expect(screen.queryByText('hunter2')).toBeNull();

  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'PORT' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save variable' }));
  expect(await screen.findByText(/PORT is set by the platform/)).toBeTruthy();
  expect(fetchMock).toHaveBeenCalled();
});
