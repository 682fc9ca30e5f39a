const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};

/** Intl's formatter in `timeZone`, in UTC when the browser does not know the zone. */
function dateTimeFormat(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone });
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
}

/**
 * A date and time as the seller's clock shows it: in their time zone (`user.timezone`), with that
 * zone's daylight saving time on the day shown.
 */
export function formatDateTime(iso: string, timeZone: string): string {
  return dateTimeFormat(timeZone, DATE_TIME).format(new Date(iso));
}

/** The time zones a seller may choose: the browser's IANA list, with UTC first. */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/** A zone's offset from UTC at `at`, as "UTC+05:30" ("UTC" for none). */
export function zoneOffsetLabel(timeZone: string, at: Date = new Date()): string {
  const part = dateTimeFormat(timeZone, { timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value.replace('GMT', 'UTC') ?? 'UTC';
}

/** An ISO instant as a datetime-local input's value (the browser's clock), '' for none. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A datetime-local input's value (the browser's clock) as an ISO instant, null for none. */
export const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);
