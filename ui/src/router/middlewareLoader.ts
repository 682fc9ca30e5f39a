import { data, redirect, type LoaderFunction } from 'react-router';
import type { User } from '../api';
import { resolveMiddleware, runMiddleware, UnknownMiddlewareError, type Middleware } from '../middleware/registry';

/** What the router answers for a route that names a guard nobody registered. */
export interface UnknownMiddlewareFailure {
  message: string;
  middleware: string;
}

function resolveChain(names: readonly string[]): Middleware[] {
  try {
    return names.map(resolveMiddleware);
  } catch (error) {
    if (error instanceof UnknownMiddlewareError) {
      throw data<UnknownMiddlewareFailure>({ message: error.message, middleware: error.middleware }, { status: 500 });
    }
    throw error;
  }
}

/**
 * A route loader that runs the named middlewares before the route renders. Names are resolved on
 * every visit, so a route naming an unknown guard answers the 500 page rather than breaking the app.
 * The platform's maintenance switch is loaded exactly when the chain names the maintenance guard:
 * `loadMaintenance` is given then and only then (a route table that breaks this throws when built).
 */
export function middlewareLoader(
  names: readonly string[],
  loadUser: () => Promise<User | null>,
  loadMaintenance?: () => Promise<boolean>,
): LoaderFunction {
  if (names.includes('maintenance') !== (loadMaintenance !== undefined)) {
    throw new Error(`middlewareLoader [${names.join(', ')}]: loadMaintenance goes with the maintenance guard, and only with it`);
  }
  return async ({ request }) => {
    const chain = resolveChain(names);
    const url = new URL(request.url);
    const [user, maintenance] = await Promise.all([loadUser(), loadMaintenance?.()]);
    const target = runMiddleware(chain, { url, user, maintenance });
    if (target !== undefined) throw redirect(target);
    return null;
  };
}
