import { BENEFITS, CAREERS_EMAIL, JOBS } from './content';
import { usePageTitle } from '../../lib/usePageTitle';

export default function Careers() {
  usePageTitle('Careers');
  return (
    <div className="page container">
      <header className="page-hero">
        <h1>Careers</h1>
        <p className="section-lead">Help developers everywhere ship faster. Join us.</p>
      </header>

      <section className="section-sm" aria-labelledby="benefits-title">
        <h2 id="benefits-title" className="section-title">Benefits</h2>
        <div className="card-grid card-grid-4">
          {BENEFITS.map((b) => (
            <article key={b.title} className="card">
              <h3>{b.title}</h3>
              <p>{b.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section-sm" aria-labelledby="jobs-title">
        <h2 id="jobs-title" className="section-title">Open positions</h2>
        <ul className="jobs">
          {JOBS.map((j) => (
            <li key={j.title} className="card job">
              <div>
                <h3>{j.title}</h3>
                <p className="job-meta">
                  {j.department} · {j.location} · {j.type}
                </p>
                <p>{j.description}</p>
              </div>
              <a
                className="btn btn-primary"
                href={`mailto:${CAREERS_EMAIL}?subject=${encodeURIComponent(`Application: ${j.title}`)}`}
                aria-label={`Apply Now for ${j.title}`}
              >
                Apply Now
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
