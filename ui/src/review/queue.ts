/** The queue's keyboard: which command a key press is, outside text fields. */

export type QueueCommand = 'next' | 'previous' | 'approve' | 'reject';

const KEYS: Readonly<Record<string, QueueCommand>> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  a: 'approve',
  r: 'reject',
};

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

function isTextField(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The command of a key press, or null for keys the queue leaves alone (typing, shortcuts with modifiers). */
export function queueCommand(event: KeyLike): QueueCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey || isTextField(event.target)) return null;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  return KEYS[key] ?? null;
}

/** The id after (or before) `current` in the queue; the first when `current` is not in it. */
export function step(ids: readonly number[], current: number | null, by: 1 | -1): number | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at < 0) return ids[0] ?? null;
  return ids[Math.min(Math.max(at + by, 0), ids.length - 1)] ?? null;
}
