import { needsTfa } from '../access';
import type { Middleware } from './registry';

export const TFA_PATH = '/auth/tfa';

/** Signed-in users with two-factor enabled but not confirmed in this session go to /auth/tfa. */
export const tfaAuth: Middleware = ({ user }) => (user && needsTfa(user) ? TFA_PATH : undefined);
