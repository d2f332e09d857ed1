// Request helpers shared by the API tests: POST with a token and a client IP of the test's
// choosing (rate limits are per IP), and one way to assert an error answer.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** Distinct client addresses per test file (prefix), so per-IP limits don't leak between tests. */
export function ipSequence(prefix: number): () => string {
  let seq = 0;
  return () => {
    seq += 1;
    return `10.${prefix}.${Math.floor(seq / 200)}.${(seq % 200) + 1}`;
  };
}

export interface PostOptions {
  token?: string;
  /** A raw Authorization header (wins over token). */
  authorization?: string;
  ip?: string;
  headers?: Record<string, string>;
}

export function injectPost(app: FastifyInstance, path: string, body: unknown, opts: PostOptions, defaultIp: () => string): Promise<LightMyRequestResponse> {
  const authorization = opts.authorization ?? (opts.token ? `Bearer ${opts.token}` : undefined);
  return app.inject({
    method: 'POST',
    url: '/api' + path,
    remoteAddress: opts.ip ?? defaultIp(),
    headers: { ...(authorization ? { authorization } : {}), ...opts.headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : (body as object) }),
  });
}

export function expectError(res: LightMyRequestResponse, status: number, message: string | RegExp): void {
  expect({ status: res.statusCode, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/^application\/json/) });
  if (typeof message === 'string') expect(res.json().message).toBe(message);
  else expect(res.json().message).toMatch(message);
}
