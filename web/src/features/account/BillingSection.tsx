import { Link } from 'react-router-dom';
import type { Account } from '../../api/generated/model';

export function BillingSection({ plan }: { plan: Account['plan'] }) {
  return (
    <section className="card panel" aria-labelledby="billing-title">
      <h2 id="billing-title" className="panel-title">Billing</h2>
      <p>
        Current plan: <strong className="capitalize">{plan}</strong>
      </p>
      <p className="muted">Plan changes and invoices are handled with our team for now.</p>
      <Link to="/pricing" className="btn btn-secondary">
        Manage Billing
      </Link>
    </section>
  );
}
