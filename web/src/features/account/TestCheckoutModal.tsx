import type { Order } from '../../api/generated/model';
import { Modal } from '../../components/Modal';
import { formatNumber } from '../../lib/format';

/** The test provider's checkout: pays the order without moving money, then the server verifies it as any payment. */
export function TestCheckoutModal({ order, busy, onPay, onCancel }: { order: Order; busy: boolean; onPay: () => void; onCancel: () => void }) {
  const label = order.plan === 'pro' ? 'Pro' : 'Hobby';
  return (
    <Modal
      open
      title="Test payments: no money moves"
      onClose={onCancel}
      busy={busy}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={onPay} disabled={busy} data-autofocus>
            {busy ? 'Paying...' : `Pay ₹${formatNumber(order.amount / 100)} (test)`}
          </button>
        </>
      }
    >
      <p>
        This platform has no payment provider keys, so payments go through its test provider. Paying here changes your plan to <strong>{label}</strong> exactly as a real
        payment would, and no money moves.
      </p>
      <p className="muted">Order {order.order_id}</p>
    </Modal>
  );
}
