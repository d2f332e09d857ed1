// Settings → Billing ("Manage Billing"): the plan, each of its limits with what the account uses,
// the plan change (startPayment → the provider's checkout → verifyPayment), and the payment history.
// The pricing page's Get Started links here with ?plan=… for a signed-in developer.
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { Account, Billing, LimitUsage, Order } from '../../api/generated/model';
import { useGetBilling } from '../../api/generated/payments/payments';
import { DataTable } from '../../components/DataTable';
import { FormError } from '../../components/FormError';
import { ProgressBar } from '../../components/ProgressBar';
import { QueryView } from '../../components/States';
import { formatDate, formatNumber, formatSize } from '../../lib/format';
import { TestCheckoutModal } from './TestCheckoutModal';
import { usePlanCheckout, type PurchasablePlan } from './usePlanCheckout';

const PLANS: { name: PurchasablePlan; label: string; price: string }[] = [
  { name: 'hobby', label: 'Hobby', price: '₹99/month' },
  { name: 'pro', label: 'Pro', price: '₹999/month' },
];

function amountOf(u: LimitUsage, n: number): string {
  return u.unit === 'bytes' ? formatSize(n) : formatNumber(n);
}

function UsageRow({ usage }: { usage: LimitUsage }) {
  const pct = usage.allowed ? (usage.used / usage.allowed) * 100 : 0;
  return (
    <div className="usage-card">
      <div className="usage-head">
        <span>
          {usage.label}
          {usage.monthly ? ' (this month)' : ''}
        </span>
        <span className="muted">
          {amountOf(usage, usage.used)} of {usage.allowed === null ? 'unlimited' : amountOf(usage, usage.allowed)}
        </span>
      </div>
      {usage.allowed !== null && <ProgressBar value={pct} label={`${usage.label} used`} tone={pct >= 100 ? 'danger' : pct >= 80 ? 'warning' : 'primary'} />}
    </div>
  );
}

function Payments({ payments }: { payments: Order[] }) {
  if (!payments.length) return <p className="muted">No payments yet.</p>;
  return (
    <DataTable caption="Payment history" columns={['Date', 'Plan', 'Amount', 'Status', 'Order']}>
      {payments.map((p) => (
        <tr key={p.order_id}>
          <td>{formatDate(p.paid_at ?? p.created_at)}</td>
          <td className="capitalize">{p.plan}</td>
          <td>₹{formatNumber(p.amount / 100)}</td>
          <td>
            <span className={`badge ${p.status === 'paid' ? 'badge-active' : p.status === 'failed' ? 'badge-error' : 'badge-inactive'}`}>{p.status}</span>
          </td>
          <td className="mono">{p.order_id}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function BillingBody({ billing }: { billing: Billing }) {
  const checkout = usePlanCheckout();
  const [params, setParams] = useSearchParams();
  const asked = useRef(false);
  const wanted = params.get('plan');

  // From the pricing page: start the change the developer asked for, once.
  useEffect(() => {
    if (asked.current || (wanted !== 'hobby' && wanted !== 'pro')) return;
    asked.current = true;
    const next = new URLSearchParams(params);
    next.delete('plan');
    setParams(next, { replace: true });
    if (wanted !== billing.plan) void checkout.upgrade(wanted);
  }, [wanted, billing.plan, params, setParams, checkout]);

  return (
    <>
      <p>
        Current plan: <strong>{billing.label}</strong>
      </p>
      {billing.provider.provider === 'test' && <p className="warning-note">{billing.provider.name}: this platform has no payment provider keys.</p>}
      <div className="stack" aria-label="Usage against your plan's limits">
        {billing.usage.map((u) => (
          <UsageRow key={u.limit} usage={u} />
        ))}
      </div>
      <h3>Manage Billing</h3>
      <div className="row-actions">
        {PLANS.filter((p) => p.name !== billing.plan).map((p) => (
          <button key={p.name} type="button" className="btn btn-primary" disabled={checkout.busy} onClick={() => void checkout.upgrade(p.name)}>
            {billing.plan === 'pro' && p.name === 'hobby' ? 'Switch to' : 'Upgrade to'} {p.label} ({p.price})
          </button>
        ))}
        <a className="btn btn-secondary" href="/contact">
          Enterprise: contact us
        </a>
      </div>
      <FormError message={checkout.error} />
      <h3>Payment history</h3>
      <Payments payments={billing.payments} />
      {checkout.testOrder && <TestCheckoutModal order={checkout.testOrder} busy={checkout.busy} onPay={() => void checkout.payTest()} onCancel={checkout.cancelTest} />}
    </>
  );
}

/** `plan` (from the account) is shown while the billing loads. */
export function BillingSection({ plan }: { plan: Account['plan'] }) {
  const billing = useGetBilling();
  return (
    <section className="card panel" id="billing" aria-labelledby="billing-title">
      <h2 id="billing-title" className="panel-title">Billing</h2>
      <QueryView query={billing} loading={`Loading billing (${plan} plan)...`} errorTitle="Could not load billing">
        {(data) => <BillingBody billing={data} />}
      </QueryView>
    </section>
  );
}
