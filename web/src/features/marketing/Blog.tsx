import { FEATURED_POST, POSTS, formatPostDate, type BlogPost } from './content';
import { usePageTitle } from '../../lib/usePageTitle';

function Meta({ post }: { post: BlogPost }) {
  return (
    <p className="post-meta">
      <span>{post.author}</span>
      <span aria-hidden="true">·</span>
      <time dateTime={post.date}>{formatPostDate(post.date)}</time>
      <span aria-hidden="true">·</span>
      <span>{post.readTime}</span>
    </p>
  );
}

export default function Blog() {
  usePageTitle('Blog');
  return (
    <div className="page container">
      <header className="page-hero">
        <h1>Blog</h1>
        <p className="section-lead">News, tutorials and engineering notes from the Hostbase team.</p>
      </header>

      <article className="card post-featured" aria-labelledby="featured-title">
        <div className="post-image" style={{ background: FEATURED_POST.image }} aria-hidden="true" />
        <div className="post-body">
          <p className="post-category">Featured · {FEATURED_POST.category}</p>
          <h2 id="featured-title">{FEATURED_POST.title}</h2>
          <p>{FEATURED_POST.excerpt}</p>
          <Meta post={FEATURED_POST} />
        </div>
      </article>

      <div className="card-grid card-grid-3 posts">
        {POSTS.map((p) => (
          <article key={p.title} className="card post-card">
            <div className="post-image" style={{ background: p.image }} aria-hidden="true" />
            <div className="post-body">
              <p className="post-category">{p.category}</p>
              <h2 className="post-title">{p.title}</h2>
              <p>{p.excerpt}</p>
              <Meta post={p} />
            </div>
          </article>
        ))}
      </div>
    </div>
  );
}
