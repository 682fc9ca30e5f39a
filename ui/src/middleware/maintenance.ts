import { isAdmin } from '../access';
import type { Middleware } from './registry';

/** The page the platform shows while in maintenance (blank layout). */
export const MAINTENANCE_PATH = '/maintenance';

/**
 * maintenance: while the platform is in maintenance every page goes to /maintenance, admins excepted;
 * otherwise /maintenance itself goes to /. The route loader always loads the switch for this guard.
 */
export const maintenance: Middleware = ({ url, user, maintenance: on }) => {
  if (url.pathname === MAINTENANCE_PATH) return on ? undefined : '/';
  return on && !(user && isAdmin(user)) ? MAINTENANCE_PATH : undefined;
};
