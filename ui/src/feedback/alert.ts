import type { MantineColor } from '@mantine/core';

/** The alert types an alert accepts. */
export const ALERT_TYPES = ['primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

const KNOWN: ReadonlySet<string> = new Set(ALERT_TYPES);

/** The alert type to show for `value` (from the server, a query, a prop): anything unknown is info. */
export function alertType(value: unknown): AlertType {
  return typeof value === 'string' && KNOWN.has(value) ? (value as AlertType) : 'info';
}

/** The Mantine colour each alert type is drawn in. */
export const ALERT_COLORS: Readonly<Record<AlertType, MantineColor>> = {
  primary: 'blue',
  secondary: 'gray',
  success: 'green',
  danger: 'red',
  warning: 'yellow',
  info: 'cyan',
  light: 'gray.1',
  dark: 'dark',
};

/** The colour of an alert of any claimed type, unknown types drawn as info. */
export function alertColor(value: unknown): MantineColor {
  return ALERT_COLORS[alertType(value)];
}
