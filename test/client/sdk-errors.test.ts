// Every failure of @hostbase/client is a HostbaseError that says what to check, with the cause:
// a platform that is not there, one that never answers (the client's timeout), and an address
// that answers something other than the API's JSON.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient, HostbaseError } from '../../packages/client/src/index';

const listening = async <S extends net.Server>(server: S): Promise<S & { url: string }> => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
};
const closed = (server: net.Server) => new Promise((r) => server.close(r));
const failure = (p: PromiseLike<unknown>) => Promise.resolve(p).then(() => undefined, (e: unknown) => e as HostbaseError);

test('nothing listening: network_error, the address tried and what to check, fetch\'s error as the cause', async () => {
  const s = await listening(net.createServer());
  await closed(s);
  const err = await failure(createClient(s.url, 'hb_publishable_x').auth.signUp({ email: 'a@example.com', password: 'tangerine mosaic 42' }));
  expect(err).toBeInstanceOf(HostbaseError);
  expect(err).toMatchObject({ status: 0, code: 'network_error' });
  expect(err!.message).toContain(`Could not reach Hostbase at ${s.url} — is the server running`);
  expect((err!.cause as Error).message).toBe('fetch failed');
  // The query builder and storage go the same way.
  expect(await failure(createClient(s.url, 'k').db.from('notes').select())).toMatchObject({ code: 'network_error' });
  expect(await failure(createClient(s.url, 'k').storage.upload('x', { name: 'x.txt' }))).toMatchObject({ code: 'network_error' });
});

test('no answer within the timeout option: timeout; the caller\'s own abort: aborted', async () => {
  const held: net.Socket[] = [];
  const s = await listening(net.createServer((socket) => void held.push(socket)));
  try {
    const err = await failure(createClient(s.url, 'k', { timeout: 200 }).db.from('notes').select());
    expect(err).toBeInstanceOf(HostbaseError);
    expect(err).toMatchObject({ status: 0, code: 'timeout' });
    expect(err!.message).toContain(`Hostbase at ${s.url} did not answer`);
    // The caller's own signal: aborted, not a timeout.
    const stop = new AbortController();
    const pending = failure(createClient(s.url, 'k').request('/db/v1/notes/select', { method: 'POST', json: {}, signal: stop.signal }));
    stop.abort();
    expect(await pending).toMatchObject({ code: 'aborted' });
  } finally {
    for (const socket of held) socket.destroy();
    await closed(s);
  }
});

test('an address that is not the platform: invalid_response, with the status', async () => {
  const s = await listening(http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a proxy page</html>')));
  try {
    const err = await failure(createClient(s.url, 'k').db.from('notes').select());
    expect(err).toBeInstanceOf(HostbaseError);
    expect(err).toMatchObject({ status: 200, code: 'invalid_response' });
    // fetch's realm, not jest's: compared by name.
    expect((err!.cause as Error).name).toBe('SyntaxError');
  } finally {
    await closed(s);
  }
});

test('createClient without a key is a HostbaseError too', () => {
  expect(() => createClient('http://localhost:3000', '')).toThrow(HostbaseError);
});
