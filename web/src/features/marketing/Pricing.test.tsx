import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/utils';
import Pricing from './Pricing';

const links = () => screen.getAllByRole('link', { name: 'Get Started' }).map((a) => a.getAttribute('href'));

afterEach(() => localStorage.clear());

it('Get Started leads a visitor to sign-up (Enterprise to contact)', () => {
  renderWithProviders(<Pricing />);
  expect(links()).toEqual(['/auth/signup', '/auth/signup', '/contact']);
});

it('Get Started leads a signed-in developer to the plan change in Settings → Billing', () => {
  localStorage.setItem('token', 't');
  renderWithProviders(<Pricing />);
  expect(links()).toEqual(['/console/account?plan=hobby#billing', '/console/account?plan=pro#billing', '/contact']);
});
