import { afterEach, describe, expect, it } from 'vitest';
import { storedQuery, TRACK_COOKIE } from '../tracking/campaign';
import { resolveMiddleware } from './registry';

describe('cs-tracking', () => {
  afterEach(() => {
    document.cookie = `${TRACK_COOKIE}=; path=/; max-age=0`;
  });

  it('is registered, keeps a utm_campaign query in cs_track and never redirects', () => {
    const csTracking = resolveMiddleware('cs-tracking');
    expect(csTracking({ url: new URL('http://localhost/orders?utm_campaign=spring&utm_medium=email'), user: null })).toBeUndefined();
    expect(storedQuery()).toEqual({ utm_campaign: 'spring', utm_medium: 'email' });
  });

  it('leaves cs_track alone without a utm_campaign', () => {
    expect(resolveMiddleware('cs-tracking')({ url: new URL('http://localhost/?utm_source=x'), user: null })).toBeUndefined();
    expect(storedQuery()).toBeUndefined();
  });
});
