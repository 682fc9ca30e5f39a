import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isApiError } from '../api';
import { CenteredLayout } from '../layouts/CenteredLayout';
import type { UnknownMiddlewareFailure } from '../router/middlewareLoader';
import { ErrorPage } from './ErrorPage';
import { NotFoundPage } from './NotFoundPage';

const DEFAULT_STATUS = 500;

function isUnknownMiddleware(value: unknown): value is UnknownMiddlewareFailure {
  return typeof value === 'object' && value !== null && 'middleware' in value && 'message' in value;
}

function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    if (isUnknownMiddleware(error.data)) {
      return (
        <ErrorPage
          status={error.status}
          message={error.data.message}
          detail={`No route guard is registered as "${error.data.middleware}".`}
        />
      );
    }
    return <ErrorPage status={error.status} message={error.statusText || 'Something went wrong'} />;
  }
  if (isApiError(error)) return <ErrorPage status={error.status} message={error.message} />;
  return (
    <ErrorPage
      status={DEFAULT_STATUS}
      message="Something went wrong"
      detail={error instanceof Error ? error.message : undefined}
    />
  );
}

/** The router's error boundary: the status code (default 500) and the message (spec §8). */
export function RouteErrorPage() {
  return (
    <CenteredLayout>
      <RouteError />
    </CenteredLayout>
  );
}
