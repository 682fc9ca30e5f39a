import type { User } from '../api';

/** The account_balance entry type of the second balance. */
export const SECOND_BALANCE_TYPE = 'balance_2';

/** The user's second balance, 0 when the account has none. */
export function secondBalance(user: Pick<User, 'account_balance'>): number {
  return user.account_balance.find((entry) => entry.type === SECOND_BALANCE_TYPE)?.balance ?? 0;
}
