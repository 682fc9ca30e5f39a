import type { User } from '../api';
import { auth } from './auth';
import { betaAuth } from './betaAuth';
import { csTracking } from './csTracking';
import { customPayment } from './customPayment';
import { guest } from './guest';
import { maintenance } from './maintenance';
import { preferOldBulkCampaign } from './preferOldBulkCampaign';
import { tfaAuth } from './tfaAuth';
import { verifyEmailAuth } from './verifyEmailAuth';

export interface MiddlewareContext {
  /** The URL being visited. */
  url: URL;
  /** The signed-in user, or null. */
  user: User | null;
  /** Whether the platform is in maintenance; loaded only for routes naming the maintenance guard. */
  maintenance?: boolean;
}

/** A route guard: returns a path to redirect to, or nothing to let the visit through. */
export type Middleware = (context: MiddlewareContext) => string | undefined;

/** Guards by the names routes refer to them with; later issues add beta-auth, maintenance, ... */
const registry: Readonly<Record<string, Middleware>> = {
  auth,
  guest,
  'tfa-auth': tfaAuth,
  'verify-email-auth': verifyEmailAuth,
  'custom-payment': customPayment,
  'beta-auth': betaAuth,
  maintenance,
  preferOldBulkCampaign,
  'cs-tracking': csTracking,
};

export class UnknownMiddlewareError extends Error {
  readonly middleware: string;

  constructor(name: string) {
    super('Unknown middleware');
    this.name = 'UnknownMiddlewareError';
    this.middleware = name;
  }
}

/** The guard registered as `name`; throws UnknownMiddlewareError for a name nobody registered. */
export function resolveMiddleware(name: string): Middleware {
  const middleware = Object.hasOwn(registry, name) ? registry[name] : undefined;
  if (!middleware) throw new UnknownMiddlewareError(name);
  return middleware;
}

/** Runs guards in order and returns the first redirect, if any. */
export function runMiddleware(chain: readonly Middleware[], context: MiddlewareContext): string | undefined {
  for (const middleware of chain) {
    const target = middleware(context);
    if (target !== undefined) return target;
  }
  return undefined;
}
