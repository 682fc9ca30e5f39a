import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/users';
import { afterLoginPath, loginAfterLogout, loginUrlFor, safeRedirect } from './redirects';

describe('loginAfterLogout', () => {
  it('sends designers, admins and an admin acting as a seller back to the designer login', () => {
    expect(loginAfterLogout(makeUser({ roles: ['designer'] }))).toBe('/auth/login?designer');
    expect(loginAfterLogout(makeUser({ roles: ['admin'] }))).toBe('/auth/login?designer');
    expect(loginAfterLogout(makeUser({ access_user: true }))).toBe('/auth/login?designer');
  });

  it('sends sellers, team members and the unknown to the seller login', () => {
    expect(loginAfterLogout(makeUser())).toBe('/auth/login');
    expect(loginAfterLogout(makeUser({ roles: ['staff'], access_user: true }))).toBe('/auth/login');
    expect(loginAfterLogout(null)).toBe('/auth/login');
  });
});

describe('loginUrlFor', () => {
  it.each([
    ['/', '', '/auth/login'],
    ['/login', '', '/auth/login'],
    ['/orders', '', '/auth/login?redirect=%2Forders'],
    ['/orders/detail/12', '?tab=items&x=a b', '/auth/login?redirect=%2Forders%2Fdetail%2F12%3Ftab%3Ditems%26x%3Da+b'],
    ['/', '?ref=login', '/auth/login'],
  ])('%s%s → %s', (pathname, search, expected) => {
    expect(loginUrlFor(pathname, search)).toBe(expected);
  });

  it('round-trips the original path and query through the parameter', () => {
    const url = new URL(loginUrlFor('/orders', '?status=pending'), 'http://localhost');
    expect(url.searchParams.get('redirect')).toBe('/orders?status=pending');
  });
});

describe('safeRedirect', () => {
  it.each([
    ['/orders', '/orders'],
    ['/orders?status=pending#top', '/orders?status=pending#top'],
    ['/campaigns/../orders', '/orders'],
  ])('follows the same-origin path %s', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it.each([
    null,
    '',
    'orders',
    'https://evil.example/orders',
    '//evil.example/orders',
    '/\\evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
  ])('refuses %j', (value) => {
    expect(safeRedirect(value)).toBeNull();
  });

  it('goes home without a usable parameter', () => {
    expect(afterLoginPath(new URLSearchParams('redirect=https://evil.example'))).toBe('/');
    expect(afterLoginPath(new URLSearchParams())).toBe('/');
    expect(afterLoginPath(new URLSearchParams('redirect=%2Forders'))).toBe('/orders');
  });
});
