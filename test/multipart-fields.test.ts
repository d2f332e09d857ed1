// A multipart form's text fields are checked against the contract's form schema as they arrive:
// the same 400 shape as a JSON body, before the handler reads (or stores) anything.
import { buildTestApp, type TestApp } from './helpers/app';
import { developerWithProject, rowCount, upload } from './storage/helpers';
import { createSiteProject, deploy } from './hosting/site-helpers';
import { makeZip } from './hosting/zips';

jest.setTimeout(30_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

test('a storage upload with a project_id over its maxLength is a 400 naming the field, and nothing is stored', async () => {
  const { dev, project } = await developerWithProject(t);
  const res = await upload(t, dev.token, project.id, [{ field: 'project_id', value: 'x'.repeat(16385) }, { name: 'a.txt', content: 'a' }]);
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ code: 'VALIDATION', message: 'body/project_id must NOT have more than 16384 characters' });
  expect(await rowCount(t, project.id)).toBe(0);
});

test('a deploy type outside the contract\'s enum is a 400 listing the types; a missing type keeps the SPEC\'s message', async () => {
  const p = await createSiteProject(t);
  const zip = makeZip([{ name: 'index.html', data: 'x' }]);
  const wrong = await deploy(t, p, zip, 'Cobol');
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json()).toEqual({ code: 'VALIDATION', message: 'body/type: Unknown project type. Choose one of: auto, Node, PHP, React, Vite, Angular, Flask, Next.js, Vue, Astro, Static, Node.js.' });
  const missing = await deploy(t, p, zip, undefined);
  expect(missing.json().message).toBe('Please select a project type.');
});
