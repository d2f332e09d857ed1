// The address in an activity entry is req.ip: behind a trusted proxy (TRUST_PROXY) the client's
// from X-Forwarded-For; without one, the connection's own (a forged header is ignored).
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper } from '../helpers/factories';

async function loggedAddress(t: TestApp): Promise<string> {
  const dev = await registerDeveloper(t, { ip: '10.0.0.2' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/create-project',
    remoteAddress: '10.0.0.2',
    headers: { authorization: `Bearer ${dev.token}`, 'x-forwarded-for': '198.51.100.23' },
    payload: { projectName: 'Proxy', subdomain: `proxy-${Date.now().toString(36)}` },
  });
  expect(res.statusCode).toBe(200);
  const [entry] = (await t.post('/activity', {}, dev.token)).json().entries;
  expect(entry.operation_id).toBe('createProject');
  return entry.ip;
}

test('behind a trusted proxy the client address is logged', async () => {
  const t = await buildTestApp({ TRUST_PROXY: 'true' });
  try {
    expect(await loggedAddress(t)).toBe('198.51.100.23');
  } finally {
    await t.close();
  }
});

test('without one, X-Forwarded-For is not believed', async () => {
  const t = await buildTestApp();
  try {
    expect(await loggedAddress(t)).toBe('10.0.0.2');
  } finally {
    await t.close();
  }
});
