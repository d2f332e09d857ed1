// The start-up order is declared (fastify-plugin names and dependencies), not implied by the
// order of lines in app.ts: a module registered without what it needs fails at start.
import Fastify from 'fastify';
import { ContractParts, contractPartsPlugin, contractPlugin } from '../../server/src/http/contract';
import { projectsPlugin } from '../../server/src/modules/projects/projects.module';
import { storagePlugin } from '../../server/src/modules/storage/storage.module';
import { securityHeadersPlugin } from '../../server/src/http/security-headers';

const bare = () => {
  const app = Fastify({ logger: false });
  app.decorate('deps', {} as never);
  return app;
};

test.each([
  ['projects without accounts', projectsPlugin, /hostbase-accounts/],
  ['storage without projects', storagePlugin, /hostbase-projects/],
  ['security headers without the hosting gateway', securityHeadersPlugin, /hostbase-hosting/],
  ['the contract without the modules', contractPlugin, /hostbase-/],
])('%s: refused at start', async (_name, plugin, missing) => {
  const app = bare();
  await app.register(contractPartsPlugin);
  await expect(app.register(plugin as never)).rejects.toThrow(missing);
  await app.close();
});

test('a module plugin needs the deps decoration', async () => {
  const app = Fastify({ logger: false });
  await app.register(contractPartsPlugin);
  await expect(app.register(projectsPlugin)).rejects.toThrow(/deps/);
  await app.close();
});

test('contract parts: an operation or scheme claimed twice, or a part added late, is a start-up error', () => {
  const parts = new ContractParts();
  const handler = async () => ({ status: 'ok' });
  parts.add('one', { handlers: { getHealth: handler as never }, verifiers: { bearerAuth: async () => {} } });
  expect(() => parts.add('two', { handlers: { getHealth: handler as never } })).toThrow('two: a handler for getHealth is already registered');
  expect(() => parts.add('two', { verifiers: { bearerAuth: async () => {} } })).toThrow('two: a verifier for bearerAuth is already registered');
  expect(Object.keys(parts.seal().handlers)).toEqual(['getHealth']);
  expect(() => parts.add('late', { handlers: {} })).toThrow('late: contract parts added after the contract was registered');
});
