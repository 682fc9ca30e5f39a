/** A field-level error as the bff reports it; `field` is absent for errors about the request as a whole. */
export interface FieldError {
  field?: string;
  message: string;
}

/** Every JSON answer of the bff: `{success, message, data, errors}`. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
  errors: FieldError[];
}

/** A page of a list: `{data, total, per_page, current_page, last_page, from, to}`. */
export interface Page<T> {
  data: T[];
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The error message of a body as every screen reads it: the first `errors[].message`, else `message`. */
export function envelopeMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const errors = body.errors;
  if (Array.isArray(errors)) {
    const first: unknown = errors[0];
    if (isRecord(first) && typeof first.message === 'string' && first.message !== '') return first.message;
  }
  if (typeof body.message === 'string' && body.message !== '') return body.message;
  return undefined;
}

/** The field errors of a body, keeping only well-formed entries. */
export function envelopeFieldErrors(body: unknown): FieldError[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.flatMap((entry: unknown): FieldError[] => {
    if (!isRecord(entry) || typeof entry.message !== 'string') return [];
    return typeof entry.field === 'string'
      ? [{ field: entry.field, message: entry.message }]
      : [{ message: entry.message }];
  });
}

/** True when a body explicitly reports failure (`success: false`). */
export function reportsFailure(body: unknown): boolean {
  return isRecord(body) && body.success === false;
}
