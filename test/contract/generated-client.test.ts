// A stranger's generated client: openapi-typescript (as an app builder runs it, outside this
// repository and its redocly.yaml) turns the served /api/openapi.json into types, and a small
// usage file typechecks against them, while a wrong use does not.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { buildTestApp, type TestApp } from '../helpers/app';

jest.setTimeout(120_000);
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'https://hostbase.example.com' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-client-'));
  const spec = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  fs.writeFileSync(path.join(dir, 'openapi.json'), spec.body);
  const bin = path.resolve(__dirname, '../../node_modules/.bin/openapi-typescript');
  execFileSync(bin, ['openapi.json', '-o', 'api.d.ts'], { cwd: dir, stdio: 'pipe' });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const USAGE = `
import type { paths, components } from './api';
type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
type SignUp = Json<'/auth/v1/signup', 'post'>;
export const body: NonNullable<SignUp extends { requestBody?: infer B } ? B : never>['content']['application/json'] = {
  email: 'grace@example.com',
  password: 'a-long-passphrase',
};
export function token(s: components['schemas']['EndUserSession']): string {
  return s.access_token + s.user.email;
}
export type Account = paths['/account-details']['post']['responses']['200']['content']['application/json'];
export const plan = (a: Account): 'hobby' | 'pro' | 'enterprise' => a.plan;
export type Row = components['schemas']['DbSelect'];
export const select: Row = { filters: [{ column: 'done', op: 'eq', value: false }], page: 1 };
`;

function diagnostics(source: string): string[] {
  const file = path.join(dir, `usage-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(file, source);
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('the generated types name the absolute server and every operation', () => {
  const dts = fs.readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
  expect(dts).toContain('"/auth/v1/signup"');
  expect(dts).toContain('operations');
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'openapi.json'), 'utf8'));
  expect(spec.servers[0].url).toBe('https://hostbase.example.com/api');
});

test('a usage file typechecks against the generated client types', () => {
  expect(diagnostics(USAGE)).toEqual([]);
});

test('a wrong use does not (the check can fail)', () => {
  const wrong = USAGE.replace("op: 'eq'", "op: 'equals'").replace('s.access_token', 's.accessToken');
  const found = diagnostics(wrong).join('\n');
  expect(found).toMatch(/equals/);
  expect(found).toMatch(/accessToken/);
});
