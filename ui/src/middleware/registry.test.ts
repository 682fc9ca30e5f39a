import { describe, expect, it } from 'vitest';
import type { User } from '../api';
import { makeUser } from '../test/users';
import { resolveMiddleware, runMiddleware, UnknownMiddlewareError, type Middleware } from './registry';

const user = { id: 7, name: 'Demo Seller', email: 'seller@example.com', roles: ['seller'] } as User;

function context(path: string, signedIn: boolean) {
  return { url: new URL(path, 'http://localhost'), user: signedIn ? user : null };
}

describe('middleware registry', () => {
  it('resolves the registered guards by name', () => {
    expect(resolveMiddleware('auth')).toBeTypeOf('function');
    expect(resolveMiddleware('guest')).toBeTypeOf('function');
  });

  it.each(['beta_auth', 'tfa_auth', 'Auth', 'toString', '__proto__', ''])('refuses the unknown name %j', (name) => {
    expect(() => resolveMiddleware(name)).toThrowError(new UnknownMiddlewareError(name));
    try {
      resolveMiddleware(name);
    } catch (error) {
      expect(error).toBeInstanceOf(UnknownMiddlewareError);
      expect((error as UnknownMiddlewareError).message).toBe('Unknown middleware');
      expect((error as UnknownMiddlewareError).middleware).toBe(name);
    }
  });

  describe('auth', () => {
    const auth = resolveMiddleware('auth');

    it('lets a signed-in user through', () => {
      expect(auth(context('/orders', true))).toBeUndefined();
    });

    it('sends a signed-out visitor to login with the original path and query', () => {
      expect(auth(context('/orders?status=pending', false))).toBe('/auth/login?redirect=%2Forders%3Fstatus%3Dpending');
    });

    it('adds no redirect parameter for the home page', () => {
      expect(auth(context('/', false))).toBe('/auth/login');
    });
  });

  describe('guest', () => {
    const guest = resolveMiddleware('guest');

    it('lets a signed-out visitor see the login page', () => {
      expect(guest(context('/auth/login', false))).toBeUndefined();
    });

    it('sends a signed-in user on to the safe redirect target or home', () => {
      expect(guest(context('/auth/login?redirect=%2Forders', true))).toBe('/orders');
      expect(guest(context('/auth/login?redirect=https%3A%2F%2Fevil.example', true))).toBe('/');
    });
  });

  describe('tfa-auth', () => {
    const tfaAuth = resolveMiddleware('tfa-auth');
    const at = (u: User | null) => ({ url: new URL('/orders', 'http://localhost'), user: u });

    it('sends a user with two-factor enabled but not confirmed to /auth/tfa', () => {
      expect(tfaAuth(at(makeUser({ tfa_enable: true, tfa_confirm: false })))).toBe('/auth/tfa');
    });

    it.each([
      ['confirmed', makeUser({ tfa_enable: true, tfa_confirm: true })],
      ['not enabled', makeUser()],
      ['signed out', null],
    ])('lets %s through', (_name, u) => {
      expect(tfaAuth(at(u))).toBeUndefined();
    });
  });

  describe('verify-email-auth', () => {
    const verify = resolveMiddleware('verify-email-auth');
    const at = (u: User) => ({ url: new URL('/orders', 'http://localhost'), user: u });

    it('sends an unverified seller created after the cut-over to /auth/verify-email', () => {
      expect(verify(at(makeUser({ email_verified_at: null, created_at: '2025-06-01T00:00:00Z' })))).toBe(
        '/auth/verify-email',
      );
    });

    it.each([
      ['a verified seller', makeUser()],
      ['an unverified designer', makeUser({ email_verified_at: null, roles: ['designer'] })],
      ['a sub-account session', makeUser({ email_verified_at: null, access_user: true })],
    ])('lets %s through', (_name, u) => {
      expect(verify(at(u))).toBeUndefined();
    });
  });

  it('runs guards in order and stops at the first redirect', () => {
    const calls: string[] = [];
    const pass: Middleware = () => void calls.push('pass');
    const stop: Middleware = () => (calls.push('stop'), '/somewhere');
    const never: Middleware = () => (calls.push('never'), '/elsewhere');

    expect(runMiddleware([pass, stop, never], context('/', true))).toBe('/somewhere');
    expect(calls).toEqual(['pass', 'stop']);
  });
});
