// The rules the server and the console share (shared/rules.ts) follow the contract's patterns.
import { checkSiteUrl, normalizeOrigin, PASSWORD_MIN, PROJECT_TYPES } from '../shared/rules';
import { loadSpec } from '../server/src/http/contract';

const schemas = () => (loadSpec() as unknown as { components: { schemas: Record<string, { enum?: string[]; minLength?: number; pattern?: string }> } }).components.schemas;

test('project types and the password minimum are the contract\'s', () => {
  expect([...PROJECT_TYPES]).toEqual(schemas().ProjectType.enum);
  expect(PASSWORD_MIN).toBe(schemas().NewPassword.minLength);
});

test('an origin is normalized, or refused when the contract refuses it', () => {
  expect(normalizeOrigin(' HTTPS://App.example.com/ ')).toBe('https://app.example.com');
  expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
  for (const bad of ['https://*.example.com', 'https://app.example.com:443', 'https://app.example.com/login', 'https://u:p@app.example.com', 'ftp://app.example.com', 'https://xn--bcher-kva.example', 'http://localhost:65536', 'http://localhost:0', 'nope', ''])
    expect({ bad, origin: normalizeOrigin(bad) }).toEqual({ bad, origin: undefined });
  const pattern = new RegExp(schemas().Origin.pattern!);
  for (const good of ['https://a.example.com:8443', 'http://127.0.0.1:3000', 'http://localhost:10000', 'http://localhost:54321', 'http://localhost:65535']) expect(pattern.test(normalizeOrigin(good)!)).toBe(true);
});

test('a site URL is stored without its trailing slash; empty clears it', () => {
  expect(checkSiteUrl('https://app.example.com/base/')).toEqual({ url: 'https://app.example.com/base' });
  expect(checkSiteUrl('  ')).toEqual({ url: null });
  expect(checkSiteUrl(null)).toEqual({ url: null });
  expect(checkSiteUrl('app.example.com')).toEqual({ problem: 'not-a-url' });
  for (const bad of ['https://app.example.com/?q=1', 'https://app.example.com/#x', 'ftp://app.example.com', 'https://u:p@app.example.com'])
    expect({ bad, check: checkSiteUrl(bad) }).toEqual({ bad, check: { problem: 'shape' } });
});
