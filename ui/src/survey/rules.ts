import { z } from 'zod';
import type { User } from '../api';
import { SALE_VOLUMES } from '../api/survey';
import { inOwnSellerAccount } from '../access';

/** The survey shows about 2 s after the screen opens. */
export const SURVEY_DELAY_MS = 2000;

/** While another dialog is open the survey waits, looking again this often. */
export const SURVEY_RECHECK_MS = 500;

/** Set when the survey is closed, so it stays away for the cookie's lifetime. */
export const DISABLE_SURVEY_COOKIE = 'disable_seller_survey';

/** A Facebook URL contains one of these (bff/survey.FacebookMarkers). */
export const FACEBOOK_MARKERS = ['facebook.com/', 'fb.com/', 'fb.me/'] as const;

/** Messages of the survey, worded like the bff's. */
export const MSG_BAD_FACEBOOK = 'Please enter a valid Facebook URL!';
export const MSG_CANNOT_SAVE = 'Cannot save your information.';
export const MSG_SALE_VOLUME_REQUIRED = 'The sale volume field is required.';
export const MSG_PHONE_REQUIRED = 'The phone field is required.';

/** Whether `url` passes the Facebook rule. */
export function validFacebook(url: string): boolean {
  const lower = url.toLowerCase();
  return FACEBOOK_MARKERS.some((marker) => lower.includes(marker));
}

/**
 * Whether the survey is for `user`: a seller in its own account (not switched or
 * impersonated), not a designer, with no sale volume yet and no authorized accounts to switch into.
 */
export function surveyWanted(user: User, hasAuthorizedAccounts: boolean): boolean {
  return inOwnSellerAccount(user) && !user.sale_volume && !hasAuthorizedAccounts;
}

/** The survey form's rules; `askPhone` is set when the account has no phone (the bff requires it then). */
export function surveySchema(askPhone: boolean) {
  return z.object({
    sale_volume: z.string().refine((v) => (SALE_VOLUMES as readonly string[]).includes(v), { error: MSG_SALE_VOLUME_REQUIRED }),
    facebook: z
      .string()
      .trim()
      .refine((v) => v === '' || validFacebook(v), { error: MSG_BAD_FACEBOOK }),
    phone: z
      .string()
      .trim()
      .refine((v) => !askPhone || v !== '', { error: MSG_PHONE_REQUIRED }),
  });
}

/** The first message the bff reported for each field (the phone shows its first message). */
export function firstFieldErrors(errors: readonly { field?: string; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { field, message } of errors) {
    if (field && !(field in out)) out[field] = message;
  }
  return out;
}
