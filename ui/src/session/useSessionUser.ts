import { useSuspenseQuery } from '@tanstack/react-query';
import type { User } from '../api';
import { meQuery } from './queries';

/** The signed-in user inside routes guarded by the `auth` middleware (which has already loaded it). */
export function useSessionUser(): User {
  return useSuspenseQuery(meQuery).data;
}
