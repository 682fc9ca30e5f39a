/** One balance of the user's account (`account_balance`). */
export interface AccountBalance {
  type: string;
  balance: number;
}

/** The signed-in user as `GET /api/me` answers it. */
export interface User {
  id: number;
  name: string;
  avatar: string | null;
  email: string;
  email_verified_at: string | null;
  email_need_verify_date: string | null;
  created_at: string;
  phone: string;
  facebook: string;
  balance: number;
  account_balance: AccountBalance[];
  sale_volume: string | null;
  roles: string[];
  tags: string[];
  permissions: string[];
  status: string;
  custom_payment: boolean;
  is_ref: boolean;
  ref_id: number | null;
  nickname: string;
  campaign_limit: number;
  access_user: boolean;
  tfa_enable: boolean;
  tfa_confirm: boolean;
  /** The user's hours east of UTC now, from their time zone (daylight saving time included). */
  utc_offset: number;
  /** The IANA time zone every date is shown in, e.g. Europe/Berlin. */
  timezone: string;
  /** The display currency's code (the platform's when the user chose none). */
  currency: string;
  store_ids: number[];
  team_store_ids: number[];
  sms_credit: number;
}
