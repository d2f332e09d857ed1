import { Link } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { PLANS } from './content';
import { usePageTitle } from '../../lib/usePageTitle';
import { getToken } from '../../lib/session';

/** Get Started: sign-up for a visitor; for a signed-in developer, the plan change in Settings → Billing. */
function ctaTarget(plan: (typeof PLANS)[number]): string {
  const name = plan.name.toLowerCase();
  if (!getToken() || (name !== 'hobby' && name !== 'pro')) return plan.cta.to;
  return `/console/account?plan=${name}#billing`;
}

export default function Pricing() {
  usePageTitle('Pricing');
  return (
    <div className="page container">
      <header className="page-hero">
        <h1>Simple, transparent pricing</h1>
        <p className="section-lead">Start small and grow. Every plan includes all four building blocks.</p>
      </header>
      <div className="card-grid card-grid-3 plans">
        {PLANS.map((p) => (
          <article key={p.name} className={`card plan${p.highlighted ? ' plan-highlight' : ''}`} aria-labelledby={`plan-${p.name}`}>
            {p.highlighted && <span className="plan-flag">Most popular</span>}
            <h2 id={`plan-${p.name}`} className="plan-name">
              {p.name}
            </h2>
            <p className="plan-price">
              <span className="plan-amount">{p.price}</span>
              {p.period && <span className="plan-period">{p.period}</span>}
            </p>
            <p className="plan-desc">{p.description}</p>
            <ul className="plan-features">
              {p.features.map((f) => (
                <li key={f}>
                  <Icon name="check" size={16} /> {f}
                </li>
              ))}
            </ul>
            <Link to={ctaTarget(p)} className={`btn ${p.highlighted ? 'btn-primary' : 'btn-secondary'} btn-block`}>
              {p.cta.label}
            </Link>
          </article>
        ))}
      </div>
    </div>
  );
}
