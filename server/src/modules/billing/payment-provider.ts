// Payments behind one interface: an order is made at the provider, the customer pays in the
// provider's checkout, and the checkout hands back order_id, payment_id and a signature the
// platform checks before it changes a plan. Adapters: Razorpay (razorpay.provider.ts) and the
// platform's own test provider (test.provider.ts), which moves no money.
import crypto from 'node:crypto';

export type ProviderName = 'razorpay' | 'test';

export interface ProviderOrder {
  id: string;
  amount: number;
  currency: string;
}

export interface CheckoutInfo {
  provider: ProviderName;
  /** How the console names the provider to the customer. */
  name: string;
  /** Razorpay's public key id for checkout.js. */
  key_id?: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Creates an order of `amount` (smallest unit) at the provider; throws PaymentProviderError when it refuses. */
  createOrder(input: { amount: number; currency: string; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder>;
  /** Whether `signature` is the provider's signature of this order's payment. */
  verifyPayment(orderId: string, paymentId: string, signature: string): boolean;
  /** Whether a webhook's raw body carries the provider's signature; undefined: this provider has no webhook. */
  verifyWebhook?(rawBody: Buffer, signature: string): boolean;
  checkout(): CheckoutInfo;
}

/** The provider could not be reached or refused the order: a 502 with its reason. */
export class PaymentProviderError extends Error {}

/** HMAC-SHA256 in hex, Razorpay's signature form. */
export function hmacHex(secret: string, data: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(data).digest('hex');
}

/** A constant-time comparison of a received hex signature with the expected one. */
export function signatureMatches(expectedHex: string, received: string): boolean {
  if (!/^[0-9a-f]+$/i.test(received) || received.length !== expectedHex.length) return false;
  return crypto.timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(received.toLowerCase(), 'hex'));
}
