import { useSyncExternalStore } from 'react';
import { readCookie } from '../cookies';
import { DISABLE_SURVEY_COOKIE } from './rules';

/**
 * Whether the seller survey is out of the way for this page view: closed, saved, or turned off by its
 * cookie. The guided tour waits for it. A tiny store rather than context, so the tour on
 * the dashboard and the survey in the layout need no common parent.
 */
let closed = false;
const listeners = new Set<() => void>();

/** Marks the survey closed for this page view. */
export function markSurveyClosed(): void {
  if (closed) return;
  closed = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => closed || readCookie(DISABLE_SURVEY_COOKIE) !== undefined;

/** True once the survey has been closed in this page view or its cookie turns it off. */
export function useSurveyClosed(): boolean {
  return useSyncExternalStore(subscribe, snapshot);
}
