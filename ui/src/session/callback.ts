import { redirect, type LoaderFunction } from 'react-router';
import { api, type ApiClient } from '../api';
import { exchangeHandoff, handoffCode } from '../api/account';
import { sellerCentreCallback, sellerCentreConfig, type SellerCentreConfig } from '../middleware/customPayment';
import { HOME_PATH, LOGIN_PATH, safeRedirect } from './redirects';

/** The page that hands the session to the seller centre (see the custom-payment guard). */
export const HANDOFF_PATH = '/auth/handoff';

/**
 * Hands the session over: asks the bff for a one-time code, forgets the token here and answers the
 * seller-centre callback address carrying the code (never the token) and the same-origin redirect.
 * Null when there is nothing to hand over.
 */
export async function handOff(client: ApiClient, config: SellerCentreConfig, url: URL): Promise<string | null> {
  if (!config.url || !client.tokens.get()) return null;
  const { code } = await handoffCode(client);
  client.tokens.clear();
  return sellerCentreCallback(config, safeRedirect(url.searchParams.get('redirect')) ?? HOME_PATH, code);
}

export const handoffLoader: LoaderFunction = async ({ request }) =>
  redirect((await handOff(api, sellerCentreConfig(), new URL(request.url))) ?? LOGIN_PATH);

/**
 * `/auth/callback?code=&redirect=`: the seller-centre callback. Another host hands over
 * a one-time code; it is exchanged by POST for a session of this host, and the visit continues to the
 * same-origin redirect. Without a code, or with a used or expired one, the visitor goes to the login page.
 */
export async function exchangeCallback(client: ApiClient, url: URL): Promise<string> {
  const code = url.searchParams.get('code');
  if (!code) return LOGIN_PATH;
  try {
    client.tokens.set((await exchangeHandoff(client, code)).access_token);
  } catch {
    return LOGIN_PATH;
  }
  return safeRedirect(url.searchParams.get('redirect')) ?? HOME_PATH;
}

export const callbackLoader: LoaderFunction = async ({ request }) => redirect(await exchangeCallback(api, new URL(request.url)));
