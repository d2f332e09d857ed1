import { OFFICE_PHOTOS, TEAM, VALUES } from './content';
import { usePageTitle } from '../../lib/usePageTitle';

export default function About() {
  usePageTitle('About');
  return (
    <div className="page container">
      <header className="page-hero">
        <h1>About Hostbase</h1>
        <p className="section-lead">
          We build the backend we always wanted: open source, simple to start with and dependable in production.
        </p>
      </header>

      <section className="section-sm" aria-labelledby="values-title">
        <h2 id="values-title" className="section-title">Our values</h2>
        <div className="card-grid card-grid-3">
          {VALUES.map((v) => (
            <article key={v.title} className="card">
              <h3>{v.title}</h3>
              <p>{v.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className="section-sm" aria-labelledby="team-title">
        <h2 id="team-title" className="section-title">Our team</h2>
        <ul className="card-grid card-grid-3 team">
          {TEAM.map((m) => (
            <li key={m.name} className="card team-card">
              <span className="avatar avatar-lg" aria-hidden="true">{m.initials}</span>
              <h3>{m.name}</h3>
              <p>{m.role}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="section-sm" aria-labelledby="office-title">
        <h2 id="office-title" className="section-title">Our office</h2>
        <div className="card-grid card-grid-3">
          {OFFICE_PHOTOS.map((p) => (
            <figure key={p.caption} className="photo">
              <div className="photo-img" style={{ background: p.image }} role="img" aria-label={p.caption} />
              <figcaption>{p.caption}</figcaption>
            </figure>
          ))}
        </div>
      </section>
    </div>
  );
}
