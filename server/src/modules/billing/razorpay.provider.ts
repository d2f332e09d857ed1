// Razorpay (https://razorpay.com/docs/api/orders/): orders through its REST API with HTTP basic
// auth (key id : key secret); a checkout's payment is proved by the HMAC-SHA256 of
// "order_id|payment_id" with the key secret, a webhook by the HMAC-SHA256 of its raw body with
// the webhook secret. Its answers are checked before they are believed: an order must come back
// with an id and the amount and currency asked for.
import { hmacHex, PaymentProviderError, signatureMatches, type PaymentProvider, type ProviderOrder } from './payment-provider';

export interface RazorpayConfig {
  keyId: string;
  keySecret: string;
  webhookSecret?: string;
  apiUrl: string;
  /** Milliseconds to wait for Razorpay's answer. */
  timeoutMs?: number;
}

export class RazorpayProvider implements PaymentProvider {
  readonly name = 'razorpay' as const;

  /** Present only with a webhook secret: without one the webhook is not served. */
  readonly verifyWebhook?: (rawBody: Buffer, signature: string) => boolean;

  constructor(private readonly c: RazorpayConfig) {
    const secret = c.webhookSecret;
    if (secret) this.verifyWebhook = (rawBody, signature) => signatureMatches(hmacHex(secret, rawBody), signature);
  }

  async createOrder(input: { amount: number; currency: string; receipt: string; notes: Record<string, string> }): Promise<ProviderOrder> {
    let res: Response;
    try {
      res = await fetch(`${this.c.apiUrl}/v1/orders`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${this.c.keyId}:${this.c.keySecret}`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ amount: input.amount, currency: input.currency, receipt: input.receipt, notes: input.notes }),
        signal: AbortSignal.timeout(this.c.timeoutMs ?? 10_000),
      });
    } catch {
      throw new PaymentProviderError('The payment provider (Razorpay) could not be reached; try again in a moment');
    }
    const body = (await res.json().catch(() => undefined)) as { id?: unknown; amount?: unknown; currency?: unknown; error?: { description?: unknown } } | undefined;
    if (!res.ok) {
      const reason = typeof body?.error?.description === 'string' ? `: ${body.error.description.slice(0, 200)}` : '';
      throw new PaymentProviderError(`The payment provider (Razorpay) refused the order (HTTP ${res.status})${reason}`);
    }
    if (typeof body?.id !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(body.id) || body.amount !== input.amount || body.currency !== input.currency) {
      throw new PaymentProviderError('The payment provider (Razorpay) answered with an order that does not match the one asked for');
    }
    return { id: body.id, amount: input.amount, currency: input.currency };
  }

  verifyPayment(orderId: string, paymentId: string, signature: string): boolean {
    return signatureMatches(hmacHex(this.c.keySecret, `${orderId}|${paymentId}`), signature);
  }

  checkout() {
    return { provider: this.name, name: 'Razorpay', key_id: this.c.keyId };
  }
}
