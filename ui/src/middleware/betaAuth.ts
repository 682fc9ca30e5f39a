import { hasTag, TAGS } from '../access';
import type { Middleware } from './registry';

/** beta-auth: a signed-in user lacking the beta tag is sent to /. */
export const betaAuth: Middleware = ({ user }) => (user && !hasTag(user, TAGS.beta) ? '/' : undefined);
