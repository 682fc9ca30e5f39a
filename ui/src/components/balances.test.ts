import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/users';
import { secondBalance } from './balances';

describe('secondBalance', () => {
  it('is the balance_2 entry of account_balance', () => {
    const user = makeUser({ account_balance: [{ type: 'default', balance: 3 }, { type: 'balance_2', balance: 25.5 }] });
    expect(secondBalance(user)).toBe(25.5);
  });

  it('is 0 without one', () => {
    expect(secondBalance(makeUser({ account_balance: [{ type: 'default', balance: 3 }] }))).toBe(0);
  });
});
