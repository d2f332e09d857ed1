// Billing module: plans, payments behind a PaymentProvider (Razorpay with its keys, else the test
// provider), and an account's billing. As a plugin: decorates app.billing.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { deriveKey } from '../../platform/crypto';
import { monthStart, activeUserCount, bandwidthBytes, mailboxCount, projectCount } from '../plans';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { createBillingHandlers } from './billing.handlers';
import { RazorpayProvider } from './razorpay.provider';
import { TestPaymentProvider } from './test.provider';
import type { PaymentProvider } from './payment-provider';
import { keepRawBody } from './raw-body';
import { storageFigures } from '../storage';
import { accountUsage } from '../database';

export function paymentProvider(deps: Pick<Deps, 'config'>): PaymentProvider {
  const rz = deps.config.razorpay;
  if (rz) return new RazorpayProvider(rz);
  return new TestPaymentProvider(deriveKey(deps.config.jwtSecret, 'test-payments').toString('hex'));
}

export function createBillingModule(deps: Deps) {
  const storage = storageFigures(deps.db);
  const service = new BillingService({
    repo: new BillingRepository(deps.db),
    provider: paymentProvider(deps),
    clock: deps.clock,
    usage: async (accountId) => {
      const since = monthStart(deps.clock.now());
      const [projects, stored, database, users, bandwidth, mailboxes] = await Promise.all([
        projectCount(deps.db, accountId),
        storage.usage(accountId),
        accountUsage(deps.database, accountId),
        activeUserCount(deps.db, accountId, since),
        bandwidthBytes(deps.db, accountId, since),
        mailboxCount(deps.db, accountId),
      ]);
      return { projects, storage: stored.usedBytes, database: database.usedBytes, monthly_active_users: users, bandwidth, mailboxes };
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
  { name: 'hostbase-billing', dependencies: ['hostbase-contract-parts', 'hostbase-accounts', 'hostbase-storage', 'hostbase-database'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    billing: BillingService;
  }
}
