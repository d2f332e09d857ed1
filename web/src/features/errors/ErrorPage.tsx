// Shown for unknown routes and for any fault while rendering a route.
import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Logo } from '../../components/Logo';

export function ErrorView({ detail }: { detail?: string }) {
  return (
    <main className="error-page">
      <div className="error-card">
        <Link to="/" aria-label="Hostbase home">
          <Logo />
        </Link>
        <h1>Unexpected Application Error!</h1>
        {detail && <p className="error-detail">{detail}</p>}
        <div className="error-actions">
          <Link to="/" className="btn btn-primary">
            Go to the home page
          </Link>
          <Link to="/console" className="btn btn-secondary">
            Open the console
          </Link>
        </div>
      </div>
    </main>
  );
}

export function NotFoundPage() {
  return <ErrorView detail="404 Not Found" />;
}

export default function RouteErrorPage() {
  const error = useRouteError();
  let detail: string | undefined;
  if (isRouteErrorResponse(error)) detail = `${error.status} ${error.statusText}`;
  else if (error instanceof Error) detail = error.message;
  return <ErrorView detail={detail} />;
}
