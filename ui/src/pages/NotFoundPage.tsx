import { ErrorPage } from './ErrorPage';

const NOT_FOUND_MESSAGE = 'This page could not be found';

/** Unknown paths and `/error/404`. */
export function NotFoundPage() {
  return <ErrorPage status={404} message={NOT_FOUND_MESSAGE} />;
}
