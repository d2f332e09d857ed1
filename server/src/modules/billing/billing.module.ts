// Billing module: plans, payments behind a PaymentProvider (Razorpay with its keys, else the test
// provider), and an account's billing. As a plugin: decorates app.billing.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { deriveKey } from '../../platform/crypto';
import { monthStart, usageRegistry } from '../plans';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { createBillingHandlers } from './billing.handlers';
import { RazorpayProvider } from './razorpay.provider';
import { TestPaymentProvider } from './test.provider';
import type { PaymentProvider } from './payment-provider';
import { keepRawBody } from './raw-body';
import { storageFigures } from '../storage';

export function paymentProvider(deps: Pick<Deps, 'config'>): PaymentProvider {
  const rz = deps.config.razorpay;
  if (rz) return new RazorpayProvider(rz);
  return new TestPaymentProvider(deriveKey(deps.config.jwtSecret, 'test-payments').toString('hex'));
}

export function createBillingModule(deps: Deps) {
  const storage = storageFigures(deps.db);
  const usage = usageRegistry(deps);
  const service = new BillingService({
    repo: new BillingRepository(deps.db),
    provider: paymentProvider(deps),
    clock: deps.clock,
    usage: async (accountId) => {
      const since = monthStart(deps.clock.now());
      // Each counted figure from the module that owns its rows (the usage registry), over the
      // account's projects read once; storage from its own accounting.
      const scope = { projectIds: await usage.projectIds(deps.db, { accountId }) };
      const [projects, stored, database, users, bandwidth, mailboxes] = await Promise.all([
        usage.count('projects', deps.db, scope),
        storage.usage(accountId),
        usage.count('database', deps.db, scope),
        usage.count('monthly_active_users', deps.db, scope, since),
        usage.count('bandwidth', deps.db, scope, since),
        usage.count('mailboxes', deps.db, scope),
      ]);
      return { projects, storage: stored.usedBytes, database, monthly_active_users: users, bandwidth, mailboxes };
    },
    planChanged: () => deps.lookups.barrier(),
  });
  return { service, handlers: createBillingHandlers(service) };
}

export const billingPlugin = fp(
  async (app: FastifyInstance) => {
    const billing = createBillingModule(app.deps);
    app.decorate('billing', billing.service);
    keepRawBody(app, ['razorpayWebhook']);
    app.contractParts.add('billing', billing);
  },
  { name: 'hostbase-billing', dependencies: ['hostbase-contract-parts', 'hostbase-accounts', 'hostbase-projects', 'hostbase-end-users', 'hostbase-hosting', 'hostbase-storage', 'hostbase-mail', 'hostbase-database'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    billing: BillingService;
  }
}
