import { endToEndHeaders, hopByHop } from './hop-by-hop';

describe('hop-by-hop headers', () => {
  test('the fixed list and the names in Connection are hop-by-hop; others are end-to-end', () => {
    const isHop = hopByHop('keep-alive, X-Secret-Token');
    for (const name of ['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'proxy-authorization', 'proxy-connection', 'x-secret-token']) {
      expect([name, isHop(name)]).toEqual([name, true]);
    }
    for (const name of ['content-type', 'cookie', 'authorization', 'x-request-id']) expect([name, isHop(name)]).toEqual([name, false]);
  });

  test('forwarded headers: hop-by-hop dropped, a client-sent X-Forwarded-* dropped when the proxy sets its own', () => {
    const headers = {
      host: 'site.localhost',
      connection: 'close, x-drop-me',
      'x-drop-me': '1',
      'transfer-encoding': 'chunked',
      'x-forwarded-for': '10.0.0.1',
      cookie: 'a=b',
    };
    expect(endToEndHeaders(headers, true)).toEqual({ host: 'site.localhost', cookie: 'a=b' });
    expect(endToEndHeaders(headers)).toEqual({ host: 'site.localhost', cookie: 'a=b', 'x-forwarded-for': '10.0.0.1' });
  });
});
