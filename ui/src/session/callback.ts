import { redirect, type LoaderFunction } from 'react-router';
import { api } from '../api';
import { HOME_PATH, LOGIN_PATH, safeRedirect } from './redirects';

/**
 * `/auth/callback?token=&redirect=`: the seller-centre callback. Another host hands
 * over a session token; it is kept and the visit continues to the same-origin redirect. Without a
 * token the visitor goes to the login page.
 */
export const callbackLoader: LoaderFunction = ({ request }) => {
  const search = new URL(request.url).searchParams;
  const token = search.get('token');
  if (!token) return redirect(LOGIN_PATH);
  api.tokens.set(token);
  return redirect(safeRedirect(search.get('redirect')) ?? HOME_PATH);
};
