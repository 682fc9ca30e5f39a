import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isApiError } from '../api';
import { canReloadForChunk, isChunkLoadError, reloadForChunk } from '../app/chunkReload';
import { FullPageLoader } from '../components/FullPageLoader';
import { CenteredLayout } from '../layouts/CenteredLayout';
import type { UnknownMiddlewareFailure } from '../router/middlewareLoader';
import { ErrorPage } from './ErrorPage';
import { NotFoundPage } from './NotFoundPage';

const DEFAULT_STATUS = 500;

function isUnknownMiddleware(value: unknown): value is UnknownMiddlewareFailure {
  return typeof value === 'object' && value !== null && 'middleware' in value && 'message' in value;
}

/** Reloads the page once to fetch the new build's chunks. */
function ChunkReload() {
  useEffect(() => reloadForChunk(), []);
  return <FullPageLoader />;
}

function RouteError() {
  const error = useRouteError();
  if (isChunkLoadError(error) && canReloadForChunk()) return <ChunkReload />;
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

/** The router's error boundary: a failed chunk load reloads once a minute at most, else the status code (default 500) and the message. */
export function RouteErrorPage() {
  return (
    <CenteredLayout>
      <RouteError />
    </CenteredLayout>
  );
}
