import { afterEach, describe, expect, it } from 'vitest';
import { cookieTokenStore, TOKEN_COOKIE } from './tokenStore';

/** A document whose cookie setter records the raw strings, to check the attributes jsdom hides. */
function recordingDocument(): { doc: Document; written: string[] } {
  const written: string[] = [];
  const doc = {
    location: { protocol: 'http:' },
    get cookie() {
      return '';
    },
    set cookie(value: string) {
      written.push(value);
    },
  } as unknown as Document;
  return { doc, written };
}

describe('cookieTokenStore', () => {
  afterEach(() => cookieTokenStore().clear());

  it('round-trips the token through the auth._token.local cookie', () => {
    const store = cookieTokenStore();
    expect(store.get()).toBeNull();

    store.set('tok en/with+chars');

    expect(document.cookie).toContain(`${TOKEN_COOKIE}=`);
    expect(store.get()).toBe('tok en/with+chars');
  });

  it('clears the cookie', () => {
    const store = cookieTokenStore();
    store.set('abc');

    store.clear();

    expect(store.get()).toBeNull();
    expect(document.cookie).not.toContain(TOKEN_COOKIE);
  });

  it('writes path /, a 7-day max-age and SameSite=Lax, and expires the cookie on clear', () => {
    const { doc, written } = recordingDocument();
    const store = cookieTokenStore(doc);

    store.set('abc');
    store.clear();

    expect(written[0]).toBe('auth._token.local=abc; path=/; SameSite=Lax; max-age=604800');
    expect(written[1]).toBe('auth._token.local=; path=/; SameSite=Lax; max-age=0');
  });

  it('ignores cookies whose name only looks alike', () => {
    document.cookie = 'xauth._token.local=nope; path=/';
    expect(cookieTokenStore().get()).toBeNull();
    document.cookie = 'xauth._token.local=; path=/; max-age=0';
  });
});
