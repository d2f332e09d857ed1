// The password minimum is stated in the contract where a new password is chosen (NewPassword:
// sign-up, reset, change, end users), and only there: a password typed to sign in may have any
// length and a short one gets the usual wrong-credentials answer, never a 400 that says the rule.
import { loadSpec } from '../server/src/http/contract';
import { buildTestApp, registerDeveloper, type TestApp } from './helpers/app';

type Schema = { $ref?: string; properties?: Record<string, Schema> };
const spec = loadSpec() as unknown as { paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> } }>> };

function bodyField(operationId: string, field: string): string | undefined {
  for (const item of Object.values(spec.paths))
    for (const op of Object.values(item))
      if (op.operationId === operationId) return op.requestBody?.content['application/json']?.schema.properties?.[field]?.$ref;
  return undefined;
}

test.each([
  ['registerAccount', 'password', 'NewPassword'],
  ['resetPassword', 'password', 'NewPassword'],
  ['changePassword', 'new_password', 'NewPassword'],
  ['addAuthUser', 'password', 'NewPassword'],
  ['endUserSignUp', 'password', 'NewPassword'],
  ['endUserResetPassword', 'password', 'NewPassword'],
  ['loginAccount', 'password', 'Password'],
  ['changePassword', 'current_password', 'Password'],
  ['endUserSignIn', 'password', 'Password'],
])('%s body/%s is a %s', (operationId, field, schema) => {
  expect(bodyField(operationId, field)).toBe(`#/components/schemas/${schema}`);
});

describe('through the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  test('a short password at sign-in is a wrong password (401), at registration the rule (400)', async () => {
    const dev = await registerDeveloper(t);
    const login = await t.post('/verify_user', { email: dev.email, password: 'abc' });
    expect({ status: login.statusCode, message: login.json().message }).toEqual({ status: 401, message: 'Invalid email or password' });
    const register = await t.post('/register', { name: 'Short', email: `short-${Date.now()}@example.com`, password: 'abc' });
    expect({ status: register.statusCode, message: register.json().message }).toEqual({ status: 400, message: 'body/password: Password must be at least 8 characters' });
  });
});
