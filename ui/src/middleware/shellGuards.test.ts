import { describe, expect, it } from 'vitest';
import type { User } from '../api';
import { makeUser } from '../test/users';
import { resolveMiddleware, type MiddlewareContext } from './registry';

function visit(path: string, user: User | null, maintenance?: boolean): MiddlewareContext {
  const context: MiddlewareContext = { url: new URL(path, 'https://app.pressroom.test'), user };
  if (maintenance !== undefined) context.maintenance = maintenance;
  return context;
}

describe('beta-auth', () => {
  const betaAuth = resolveMiddleware('beta-auth');

  it('sends a user lacking the beta tag to /', () => {
    expect(betaAuth(visit('/ai-design', makeUser({ tags: ['notify'] })))).toBe('/');
  });

  it('lets a beta user through', () => {
    expect(betaAuth(visit('/ai-design/history', makeUser({ tags: ['beta'] })))).toBeUndefined();
  });

  it('leaves a signed-out visitor to the auth guard', () => {
    expect(betaAuth(visit('/ai-design', null))).toBeUndefined();
  });
});

describe('maintenance', () => {
  const maintenance = resolveMiddleware('maintenance');
  const seller = makeUser();
  const admin = makeUser({ roles: ['admin'] });

  it.each([
    ['a seller page in maintenance goes to /maintenance', '/orders', seller, true, '/maintenance'],
    ['a signed-out visit in maintenance goes to /maintenance', '/', null, true, '/maintenance'],
    ['an admin passes in maintenance', '/orders', admin, true, undefined],
    ['a page out of maintenance passes', '/orders', seller, false, undefined],
    ['/maintenance out of maintenance goes to /', '/maintenance', seller, false, '/'],
    ['/maintenance in maintenance stays', '/maintenance', seller, true, undefined],
  ])('%s', (_name, path, user, on, want) => {
    expect(maintenance(visit(path, user, on))).toBe(want);
  });
});

describe('preferOldBulkCampaign', () => {
  const prefer = resolveMiddleware('preferOldBulkCampaign');
  const tagged = makeUser({ tags: ['old bulk campaign'] });

  it.each([
    ['/campaigns/edit/42', '/campaigns/bulk_v2/42'],
    ['/campaigns/express/edit/42', '/campaigns/bulk_v2/42'],
    ['/campaigns/express/42', '/campaigns/bulk_v2/42'],
  ])('sends a tagged user from %s to %s', (path, want) => {
    expect(prefer(visit(path, tagged))).toBe(want);
  });

  it.each(['/campaigns/edit', '/campaigns/express/edit', '/campaigns/aop/edit/42', '/campaigns'])(
    'leaves %s alone (no id, or another campaign type)',
    (path) => {
      expect(prefer(visit(path, tagged))).toBeUndefined();
    },
  );

  it('leaves users without the tag on the campaign', () => {
    expect(prefer(visit('/campaigns/edit/42', makeUser({ tags: ['beta'] })))).toBeUndefined();
  });
});
