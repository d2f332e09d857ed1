import { buildTestApp, type TestApp } from './helpers/app';
import { operations } from '../server/src/generated/operations';
jest.setTimeout(60000);
let t: TestApp;
const routes: string[] = [];
beforeAll(async () => { t = await buildTestApp(); });
afterAll(() => t.close());
test('probe', async () => {
  const contract = new Set(operations.map((o) => `${o.method} /api${o.path.replace(/\{(\w+)\}/g, ':$1')}`));
  const tree = t.app.printRoutes({ commonPrefix: false, includeMeta: false });
  console.log(tree.split('\n').filter((l) => !/POST|GET|DELETE|PUT|PATCH/.test(l) || true).length);
  console.log(tree.slice(0, 8000));
});
