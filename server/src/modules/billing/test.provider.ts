// The platform's own test provider: "Test payments: no money moves". Used when no Razorpay keys
// are set (a keyless `npm start`) and by the tests. Orders are made here; its checkout is the
// platform's completeTestPayment operation, which answers order_id, payment_id and a signature
// made as Razorpay makes its own (HMAC-SHA256 of "order_id|payment_id"), with a secret derived from
// the platform's JWT secret, so verifyPayment checks both providers the same way.
import crypto from 'node:crypto';
import { hmacHex, signatureMatches, type PaymentProvider, type ProviderOrder } from './payment-provider';

export const TEST_PROVIDER_NAME = 'Test payments: no money moves';

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test' as const;

  constructor(private readonly secret: string) {}

  async createOrder(input: { amount: number; currency: string }): Promise<ProviderOrder> {
    return { id: `order_test_${crypto.randomBytes(12).toString('hex')}`, amount: input.amount, currency: input.currency };
  }

  /** What the checkout hands back once the (pretend) payment went through. */
  pay(orderId: string): { order_id: string; payment_id: string; signature: string } {
    const paymentId = `pay_test_${crypto.randomBytes(12).toString('hex')}`;
    return { order_id: orderId, payment_id: paymentId, signature: hmacHex(this.secret, `${orderId}|${paymentId}`) };
  }

  verifyPayment(orderId: string, paymentId: string, signature: string): boolean {
    return signatureMatches(hmacHex(this.secret, `${orderId}|${paymentId}`), signature);
  }

  checkout() {
    return { provider: this.name, name: TEST_PROVIDER_NAME };
  }
}
