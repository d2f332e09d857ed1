import { render, screen } from '@testing-library/react';
import { StorageUsage } from './StorageUsage';

const MiB = 1024 * 1024;

it('shows files and hosting apart, and the total against the plan limit', () => {
  render(<StorageUsage usage={{ usage_bytes: 36 * MiB, files_bytes: 4 * MiB, hosting_bytes: 32 * MiB, quota_bytes: 5 * 1024 * MiB }} />);
  expect(screen.getByText('36.00 MiB of 5.00 GiB')).toBeTruthy();
  const split = screen.getByLabelText('Storage by use');
  expect(split.textContent).toBe('Files4.00 MiBHosting32.00 MiB');
  expect(screen.getByRole('progressbar', { name: 'Storage used' }).getAttribute('aria-valuenow')).toBe('1');
});

it('without a plan limit shows the total and the split, no bar', () => {
  const { container } = render(<StorageUsage usage={{ usage_bytes: 2048, files_bytes: 0, hosting_bytes: 2048 }} />);
  expect(container.querySelector('.usage-head')?.textContent).toBe('Storage used2.00 KiB');
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(screen.getByLabelText('Storage by use').textContent).toBe('Files0 BHosting2.00 KiB');
});
