import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '../../test/utils';
import { BillingSection } from './BillingSection';

const GiB = 1024 ** 3;

function billing(plan: 'hobby' | 'pro', payments: unknown[] = []) {
  return {
    plan,
    label: plan === 'pro' ? 'Pro' : 'Hobby',
    provider: { provider: 'test', name: 'Test payments: no money moves' },
    limits: {},
    usage: [
      { limit: 'projects', label: 'Projects', used: 2, allowed: plan === 'pro' ? 20 : 3, unit: 'count', monthly: false },
      { limit: 'storage', label: 'Storage', used: 4.5 * GiB, allowed: 5 * GiB, unit: 'bytes', monthly: false },
      { limit: 'bandwidth', label: 'Bandwidth', used: 0, allowed: null, unit: 'bytes', monthly: true },
    ],
    payments,
    plan_changes: [],
  };
}

const ORDER = { order_id: 'order_test_1', plan: 'pro', amount: 99_900, currency: 'INR', status: 'created', provider: 'test', checkout: { provider: 'test', name: 'Test payments: no money moves' } };

beforeEach(() => localStorage.setItem('token', 't'));

it('shows the plan, each limit against its use, the test provider and no payments', async () => {
  mockFetch((path) => (path === '/api/billing' ? { body: billing('hobby') } : { status: 404, body: { message: 'unexpected' } }));
  renderWithProviders(<BillingSection plan="hobby" />);
  expect(await screen.findByText('Hobby')).toBeTruthy();
  expect(screen.getByText('2 of 3')).toBeTruthy();
  expect(screen.getByText('4.50 GiB of 5.00 GiB')).toBeTruthy();
  expect(screen.getByText('0 B of unlimited')).toBeTruthy();
  expect(screen.getByRole('progressbar', { name: 'Storage used' }).getAttribute('aria-valuenow')).toBe('90');
  expect(screen.getByText(/Test payments: no money moves/)).toBeTruthy();
  expect(screen.getByText('No payments yet.')).toBeTruthy();
  expect(screen.getByRole('button', { name: /Upgrade to Pro/ })).toBeTruthy();
  expect(screen.queryByRole('button', { name: /Hobby/ })).toBeNull();
});

it('upgrades through startPayment, the test checkout and verifyPayment, then shows the new plan and the payment', async () => {
  let plan: 'hobby' | 'pro' = 'hobby';
  const calls: string[] = [];
  const fetchMock = mockFetch((path, body) => {
    calls.push(path);
    if (path === '/api/billing') return { body: plan === 'pro' ? billing('pro', [{ ...ORDER, status: 'paid', paid_at: '2026-01-01T00:00:00Z', created_at: '2026-01-01T00:00:00Z' }]) : billing('hobby') };
    if (path === '/api/pay') return (body as { plan: string }).plan === 'pro' ? { body: ORDER } : { status: 400, body: { message: 'bad plan' } };
    if (path === '/api/pay/test-checkout') return { body: { order_id: 'order_test_1', payment_id: 'pay_test_1', signature: 'ab'.repeat(32) } };
    if (path === '/api/verify-payment/') {
      expect(body).toEqual({ order_id: 'order_test_1', payment_id: 'pay_test_1', signature: 'ab'.repeat(32) });
      plan = 'pro';
      return { body: { ...ORDER, status: 'paid', message: 'verified', account_plan: 'pro' } };
    }
    return { status: 404, body: { message: 'unexpected' } };
  });
  renderWithProviders(<BillingSection plan="hobby" />);
  fireEvent.click(await screen.findByRole('button', { name: /Upgrade to Pro/ }));
  const dialog = await screen.findByRole('dialog', { name: 'Test payments: no money moves' });
  expect(dialog.textContent).toContain('no money moves');
  expect(plan).toBe('hobby');
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹999 (test)' }));
  });
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(await screen.findByText('Pro')).toBeTruthy();
  expect(calls.filter((c) => c !== '/api/billing')).toEqual(['/api/pay', '/api/pay/test-checkout', '/api/verify-payment/']);
  expect(await screen.findByText('order_test_1')).toBeTruthy();
  expect(screen.getByText('paid')).toBeTruthy();
  expect(fetchMock).toHaveBeenCalled();
});

it('a refused verification is shown and the plan stays', async () => {
  mockFetch((path) => {
    if (path === '/api/billing') return { body: billing('hobby') };
    if (path === '/api/pay') return { body: ORDER };
    if (path === '/api/pay/test-checkout') return { body: { order_id: 'order_test_1', payment_id: 'pay_test_1', signature: '00' } };
    if (path === '/api/verify-payment/') return { status: 400, body: { message: 'Payment signature does not match this order and payment: nothing was changed' } };
    return { status: 404, body: { message: 'unexpected' } };
  });
  renderWithProviders(<BillingSection plan="hobby" />);
  fireEvent.click(await screen.findByRole('button', { name: /Upgrade to Pro/ }));
  await screen.findByRole('dialog');
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Pay ₹999 (test)' }));
  });
  expect(await screen.findByText('Payment signature does not match this order and payment: nothing was changed')).toBeTruthy();
  expect(screen.getByText('Hobby')).toBeTruthy();
});
