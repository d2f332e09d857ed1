// The strength meter: loaded on demand, weak for common or personal passwords, strong for long
// unusual ones; nothing shown for an empty field.
import { act, render, screen } from '@testing-library/react';
import { PasswordStrength, loadEstimator } from './PasswordStrength';

it('estimates with zxcvbn-ts: common and personal passwords are weak, a long passphrase is strong', async () => {
  const estimate = await loadEstimator();
  expect(estimate('password').score).toBe(0);
  expect(estimate('password').feedback).toBe('This is a heavily used password.');
  expect(estimate('qwertyui').score).toBeLessThanOrEqual(1);
  expect(estimate('hopper1906', ['grace.hopper@example.com', 'Grace Hopper']).score).toBeLessThanOrEqual(1);
  expect(estimate('correct horse battery staple').score).toBe(4);
});

it('shows a meter with a label once loaded, and nothing for an empty password', async () => {
  const { rerender, container } = render(<PasswordStrength password="" />);
  await act(async () => {
    await loadEstimator();
  });
  expect(container.textContent).toBe('');
  rerender(<PasswordStrength password="password" />);
  const meter = await screen.findByRole('meter', { name: 'Strength' });
  expect(meter.getAttribute('aria-valuenow')).toBe('0');
  expect(screen.getByTestId('password-strength').textContent).toBe('Very weak · This is a heavily used password.');
  rerender(<PasswordStrength password="violet tram under the bridge" userInputs={['ada@example.com', null]} />);
  expect((await screen.findByRole('meter')).getAttribute('aria-valuetext')).toBe('Very strong');
});
