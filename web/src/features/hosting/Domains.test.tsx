import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { Domains } from './Domains';

beforeEach(() => localStorage.setItem('token', 'dev-token'));

const LIST = '/api/project/p1/hosting/domains';
const pending = {
  hostname: 'www.shop.example',
  status: 'pending',
  verified: false,
  records: [{ type: 'CNAME', host: 'www.shop.example', value: 'shop.hostbase.test' }],
  certificate_expires_at: null,
  error: null,
  created_at: '2026-11-24T10:00:00.000Z',
};

it('lists the domains with the record to publish, and shows why a check did not verify', async () => {
  const calls: string[] = [];
  mockFetch((path, body) => {
    calls.push(`${path} ${JSON.stringify(body ?? null)}`);
    if (path === LIST) return { body: [pending] };
    if (path === '/api/project/p1/hosting/verify_domain') return { body: { message: 'No CNAME record to shop.hostbase.test was found at www.shop.example', domain: pending } };
    return { status: 404, body: { message: 'Not Found' } };
  });
  renderWithProviders(<Domains projectId="p1" />);
  expect(await screen.findByText('www.shop.example', { selector: 'strong' })).toBeTruthy();
  expect(screen.getByText('DNS not verified')).toBeTruthy();
  expect(screen.getByText('shop.hostbase.test')).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
  expect((await screen.findByRole('alert')).textContent).toBe('No CNAME record to shop.hostbase.test was found at www.shop.example');
  expect(calls).toContain('/api/project/p1/hosting/verify_domain {"hostname":"www.shop.example"}');
});

it('adds a hostname and shows the server\'s refusal inline', async () => {
  mockFetch((path) => {
    if (path === LIST) return { body: [] };
    if (path === '/api/project/p1/hosting/add_domain') return { status: 403, body: { message: 'Your Hobby plan allows no custom domains. Upgrade the plan in Settings → Billing.' } };
    return { status: 404, body: { message: 'Not Found' } };
  });
  renderWithProviders(<Domains projectId="p1" />);
  expect(await screen.findByText('No custom domains')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Hostname'), { target: { value: 'www.shop.example' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add Domain' }));
  expect(await screen.findByText(/Your Hobby plan allows no custom domains/)).toBeTruthy();
});
