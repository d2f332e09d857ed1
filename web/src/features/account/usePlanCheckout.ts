// A plan change, as the server wants it: startPayment (an order and the provider's checkout data),
// the provider's checkout, then verifyPayment with what the checkout handed back. With the test
// provider ("Test payments: no money moves") the checkout is the platform's own (completeTestPayment,
// shown by TestCheckoutModal); with Razorpay it is Razorpay's checkout.js.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useCompleteTestPayment, useStartPayment, useVerifyPayment, getGetBillingQueryKey } from '../../api/generated/payments/payments';
import type { Order } from '../../api/generated/model';
import { errorMessage } from '../../api/http';
import { inlineError } from '../../api/queryClient';
import { useToast } from '../../components/Toast';
import { loadRazorpay } from './razorpay-checkout';

export type PurchasablePlan = 'hobby' | 'pro';

const LABEL: Record<string, string> = { hobby: 'Hobby', pro: 'Pro', enterprise: 'Enterprise' };

export function usePlanCheckout() {
  const [testOrder, setTestOrder] = useState<Order | null>(null);
  const [error, setError] = useState<string | null>(null);
  const start = useStartPayment(inlineError);
  const completeTest = useCompleteTestPayment(inlineError);
  const verify = useVerifyPayment(inlineError);
  const queryClient = useQueryClient();
  const toast = useToast();

  async function verified(paid: { order_id: string; payment_id: string; signature: string }) {
    const res = await verify.mutateAsync({ data: paid });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: getGetBillingQueryKey() }),
      // The account's plan is shown elsewhere in Settings.
      queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('account-details') }),
    ]);
    toast.success(`You are on the ${LABEL[res.account_plan ?? res.plan] ?? res.plan} plan`, res.message === 'verified' ? 'Payment verified.' : 'This payment was verified before.');
  }

  async function upgrade(plan: PurchasablePlan) {
    setError(null);
    try {
      const order = await start.mutateAsync({ data: { plan } });
      const checkout = order.checkout;
      if (!checkout || checkout.provider === 'test') return setTestOrder(order);
      const Razorpay = await loadRazorpay();
      new Razorpay({
        key: checkout.key_id ?? '',
        order_id: order.order_id,
        amount: order.amount,
        currency: order.currency,
        name: 'Hostbase',
        description: checkout.description,
        prefill: { email: checkout.prefill_email },
        handler: (r) =>
          void verified({ order_id: r.razorpay_order_id, payment_id: r.razorpay_payment_id, signature: r.razorpay_signature }).catch((err: unknown) => setError(errorMessage(err))),
      }).open();
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  async function payTest() {
    if (!testOrder) return;
    setError(null);
    try {
      const paid = await completeTest.mutateAsync({ data: { order_id: testOrder.order_id } });
      await verified(paid);
      setTestOrder(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return {
    upgrade,
    payTest,
    cancelTest: () => setTestOrder(null),
    testOrder,
    error,
    busy: start.isPending || completeTest.isPending || verify.isPending,
  };
}
