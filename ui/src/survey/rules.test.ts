import { describe, expect, it } from 'vitest';
import { SALE_VOLUMES } from '../api/survey';
import { makeUser } from '../test/users';
import { firstFieldErrors, MSG_BAD_FACEBOOK, MSG_PHONE_REQUIRED, MSG_SALE_VOLUME_REQUIRED, surveySchema, surveyWanted, validFacebook } from './rules';

describe('seller survey rules', () => {
  it('lists the sale volumes in order', () => {
    expect(SALE_VOLUMES).toEqual(['50 - 100', '150 - 300', '300 - 600', '1000 - 2000', '2000+']);
  });

  it.each([
    ['https://www.facebook.com/pressroom', true],
    ['HTTPS://FB.COM/pressroom', true],
    ['fb.me/pressroom', true],
    ['https://facebook.com', false],
    ['https://example.com/facebook', false],
  ])('reads %j as a Facebook URL: %s', (url, want) => {
    expect(validFacebook(url)).toBe(want);
  });

  it.each([
    ['a new seller', makeUser(), false, true],
    ['a seller who answered', makeUser({ sale_volume: '2000+' }), false, false],
    ['a seller with authorized accounts', makeUser(), true, false],
    ['a designer', makeUser({ roles: ['designer'] }), false, false],
    ['a team member', makeUser({ roles: ['staff'] }), false, false],
    ['an admin', makeUser({ roles: ['admin'] }), false, false],
    ['a switched or impersonated session', makeUser({ access_user: true }), false, false],
    ['a user without roles (a seller)', makeUser({ roles: [] }), false, true],
  ])('offers the survey to %s: %s', (_, user, hasAccounts, want) => {
    expect(surveyWanted(user, hasAccounts)).toBe(want);
  });

  it('checks the form with its messages', () => {
    const messages = (askPhone: boolean, values: Record<string, string>) => {
      const result = surveySchema(askPhone).safeParse({ sale_volume: '', facebook: '', phone: '', ...values });
      return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
    };
    expect(messages(true, {})).toEqual([
      ['sale_volume', MSG_SALE_VOLUME_REQUIRED],
      ['phone', MSG_PHONE_REQUIRED],
    ]);
    expect(messages(false, { sale_volume: '150 - 300', facebook: 'twitter.com/me' })).toEqual([['facebook', MSG_BAD_FACEBOOK]]);
    expect(messages(false, { sale_volume: '150 - 300', facebook: '  ' })).toEqual([]);
  });

  it('keeps the first server message of each field', () => {
    expect(
      firstFieldErrors([
        { field: 'phone', message: 'The phone must be a valid phone number.' },
        { field: 'phone', message: 'The phone may not be longer than 30 characters.' },
        { message: 'Cannot save your information.' },
        { field: 'facebook', message: MSG_BAD_FACEBOOK },
      ]),
    ).toEqual({ phone: 'The phone must be a valid phone number.', facebook: MSG_BAD_FACEBOOK });
  });
});
