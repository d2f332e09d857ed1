import type { HandlerMap } from '../../platform/http/types';
import { currentAccount } from '../caller';
import type { BillingService } from './billing.service';

export function createBillingHandlers(service: BillingService): HandlerMap {
  return {
    listPlans: async () => service.plans(),
    getBilling: async (req) => service.billing(currentAccount(req)),
    createOrder: async (req) => service.createOrder(currentAccount(req), req.body.plan),
    startPayment: async (req) => service.startPayment(currentAccount(req), req.body.plan),
    verifyPayment: async (req) => service.verify(currentAccount(req), req.body),
    completeTestPayment: async (req) => service.completeTestPayment(currentAccount(req), req.body.order_id),
    razorpayWebhook: async (req) => {
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      return service.webhook(req.rawBody, header('x-razorpay-signature'), header('x-razorpay-event-id'), req.body);
    },
  };
}
