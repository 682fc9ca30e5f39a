/** The notification kinds. */
export const TOAST_TYPES = ['info', 'warning', 'success', 'error'] as const;
export type ToastType = (typeof TOAST_TYPES)[number];

/** Default notification duration 3000 ms; toasts stack up to 5. */
export const TOAST_DURATION_MS = 3000;
export const TOAST_LIMIT = 5;
/** An error listing several messages stays 500 ms per message, never under the default. */
export const TOAST_MS_PER_MESSAGE = 500;

/** How long a toast stays: error lists 500 ms per message with a 3000 ms floor, everything else 3000 ms. */
export function toastDuration(type: ToastType, messages: readonly string[] = []): number {
  if (type !== 'error') return TOAST_DURATION_MS;
  return Math.max(TOAST_DURATION_MS, messages.length * TOAST_MS_PER_MESSAGE);
}

/** The Mantine colour of each kind. */
export const TOAST_COLORS: Readonly<Record<ToastType, string>> = {
  info: 'blue',
  warning: 'yellow',
  success: 'green',
  error: 'red',
};
