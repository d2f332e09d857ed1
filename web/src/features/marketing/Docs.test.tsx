import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../test/utils';
import Docs from './Docs';

const card = (title: string) => screen.getByRole('heading', { name: title, level: 2 }).closest('a')!;

it('shows the four topic cards, and CLI Tools and SDKs lead to sections that exist', () => {
  const { container } = renderWithProviders(<Docs />);
  expect(screen.getByRole('heading', { name: 'Documentation', level: 1 })).toBeTruthy();
  expect(card('Getting Started').getAttribute('href')).toBe('#introduction');
  expect(card('API Reference').getAttribute('href')).toBe('/api/docs');
  for (const title of ['CLI Tools', 'SDKs']) {
    const href = card(title).getAttribute('href')!;
    expect(href).toMatch(/^#/);
    const target = container.querySelector(href)!;
    expect(target).not.toBeNull();
    expect(target.nextElementSibling?.textContent ?? '').toMatch(/hostbase|@hostbase\/client/);
  }
});

it('keeps the sidebar list, each entry pointing at its section', () => {
  const { container } = renderWithProviders(<Docs />);
  const nav = screen.getByRole('navigation', { name: 'Documentation sections' });
  const first = within(nav).getAllByRole('list')[0];
  const names = within(first).getAllByRole('link').map((a) => a.textContent);
  expect(names).toEqual(['Introduction', 'Authentication', 'Database', 'Storage', 'Hosting', 'Security']);
  for (const a of within(nav).getAllByRole('link')) expect(container.querySelector(a.getAttribute('href')!)).not.toBeNull();
});

it.each([
  ['Authentication', 'SDK', /hb\.auth\.signUp\(/, /\/api\/auth\/v1\/signup|\$HB\/auth\/v1\/signup/],
  ['Database', 'SDK', /hb\.db\.from\('todos'\)/, /\$HB\/db\/v1\/todos\/select/],
  ['Storage', 'SDK', /hb\.storage\.createSignedUrl\(/, /\$HB\/storage\/v1\/object\/sign\/\$OBJECT_ID -H "X-Hostbase-Key: \$KEY"/],
  ['Hosting', 'CLI', /npx hostbase deploy/, /upload-and-extract-zip\//],
  ['Email', 'SDK', /nodemailer/, /smtp\/add_domain/],
])('%s has a quick start in %s and curl form', (name, first, sdk, curl) => {
  renderWithProviders(<Docs />);
  const tabs = screen.getByRole('tablist', { name: `${name} example` });
  const panel = () => tabs.closest('.code-tabs')!.querySelector('[role="tabpanel"]')!.textContent!;
  expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual([first, 'curl']);
  expect(panel()).toMatch(sdk);
  fireEvent.click(within(tabs).getByRole('tab', { name: 'curl' }));
  expect(within(tabs).getByRole('tab', { name: 'curl' }).getAttribute('aria-selected')).toBe('true');
  expect(panel()).toMatch(curl);
  expect(panel()).not.toMatch(sdk);
});

it('app calls in curl send the project key in X-Hostbase-Key, never x-api-key', () => {
  renderWithProviders(<Docs />);
  for (const name of ['Authentication', 'Database', 'Storage']) {
    const tabs = screen.getByRole('tablist', { name: `${name} example` });
    fireEvent.click(within(tabs).getByRole('tab', { name: 'curl' }));
    const code = tabs.closest('.code-tabs')!.querySelector('[role="tabpanel"]')!.textContent!;
    expect(code).toContain('X-Hostbase-Key: $KEY');
    expect(code.toLowerCase()).not.toContain('x-api-key');
  }
});

it('fills the samples with this platform\'s address', () => {
  renderWithProviders(<Docs />);
  const tabs = screen.getByRole('tablist', { name: 'Authentication example' });
  const code = tabs.closest('.code-tabs')!.querySelector('[role="tabpanel"]')!.textContent!;
  expect(code).toContain(`createClient('${window.location.origin}'`);
});

it('links the guides for running a platform, each a file under docs/ that the build serves', () => {
  const { container } = renderWithProviders(<Docs />);
  const nav = screen.getByRole('navigation', { name: 'Documentation sections' });
  expect(within(nav).getByRole('link', { name: 'Running Hostbase' }).getAttribute('href')).toBe('#running');
  const section = container.querySelector('#running')!;
  expect(section.nextElementSibling?.textContent).toContain('npm start');
  const links = [...section.nextElementSibling!.nextElementSibling!.querySelectorAll('a')].map((a) => a.getAttribute('href'));
  expect(links).toEqual(
    ['configuration', 'security', 'api', 'sdk', 'cli', 'hosting', 'mail', 'instances', 'backup', 'operations', 'development'].map((f) => `/docs/${f}.md`),
  );
});
