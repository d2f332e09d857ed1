import { Link } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { FEATURES, STATS, TRUSTED_BY } from './content';
import { usePageTitle } from '../../lib/usePageTitle';

export default function Landing() {
  usePageTitle('Hostbase: the open-source backend for developers');
  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <p className="eyebrow">Open-source backend as a service</p>
          <h1 className="hero-title">
            Build your app, <span className="gradient-text">not your backend</span>
          </h1>
          <p className="hero-lead">
            Database, authentication, cloud storage, hosting and email for developers, in one console and one API.
          </p>
          <div className="hero-actions">
            <Link to="/auth/signup" className="btn btn-primary btn-lg">
              Start Building <Icon name="arrowRight" />
            </Link>
            <Link to="/docs" className="btn btn-secondary btn-lg">
              View Documentation
            </Link>
          </div>
        </div>
      </section>

      <section className="section container" aria-labelledby="features-title">
        <h2 id="features-title" className="section-title">
          Everything your app needs
        </h2>
        <p className="section-lead">Four building blocks that work together from the first line of code.</p>
        <div className="card-grid card-grid-4">
          {FEATURES.map((f) => (
            <article key={f.title} className="card feature-card">
              <span className="feature-icon">
                <Icon name={f.icon} size={24} />
              </span>
              <h3>{f.title}</h3>
              <p>{f.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section stats-band" aria-label="Hostbase in numbers">
        <dl className="container stats">
          {STATS.map((s) => (
            <div key={s.label} className="stat">
              <dt>{s.label}</dt>
              <dd>{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="section container trusted" aria-labelledby="trusted-title">
        <h2 id="trusted-title" className="trusted-title">
          Trusted by industry leaders
        </h2>
        <ul className="logo-row">
          {TRUSTED_BY.map((name) => (
            <li key={name} className="wordmark">
              {name}
            </li>
          ))}
        </ul>
      </section>

      <section className="section container">
        <div className="cta-card">
          <h2>Get Started for Free</h2>
          <p>Create a project in seconds. No credit card needed.</p>
          <Link to="/auth/signup" className="btn btn-light btn-lg">
            Get Started for Free
          </Link>
        </div>
      </section>
    </>
  );
}
