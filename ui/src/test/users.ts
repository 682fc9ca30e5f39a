import type { User } from '../api';

/** A verified demo seller; tests override what they are about. */
export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    name: 'Sam Seller',
    avatar: null,
    email: 'seller@example.com',
    email_verified_at: '2025-01-02T00:00:00Z',
    email_need_verify_date: null,
    created_at: '2025-01-01T00:00:00Z',
    phone: '',
    facebook: '',
    balance: 0,
    account_balance: [],
    sale_volume: null,
    roles: ['seller'],
    tags: [],
    permissions: [],
    status: 'verified',
    custom_payment: false,
    is_ref: false,
    ref_id: null,
    nickname: '',
    campaign_limit: 0,
    access_user: false,
    tfa_enable: false,
    tfa_confirm: false,
    utc_offset: 0,
    timezone: 'UTC',
    currency: 'USD',
    store_ids: [],
    team_store_ids: [],
    sms_credit: 0,
    ...overrides,
  };
}
