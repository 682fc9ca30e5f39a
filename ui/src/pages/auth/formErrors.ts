import { isApiError } from '../../api';

const fallbackMessage = 'Something went wrong. Please try again.';

/**
 * Spreads a failed call over a form: field errors of a 422 onto their fields, and the message
 * (first errors[].message, else message) for the alert under the form.
 */
export function applyServerError(error: unknown, setErrors: (errors: Record<string, string>) => void): string {
  if (!isApiError(error)) return fallbackMessage;
  if (error.status === 422) {
    setErrors(byField(error.fieldErrors.filter((e) => e.field)));
  }
  return error.message;
}

const byField = (errors: readonly { field?: string; message: string }[]): Record<string, string> =>
  Object.fromEntries(errors.map((e) => [e.field || 'form', e.message]));

/**
 * A failed call as the errors of a form that shows them by name: each field error on its field (one without a field
 * under `form`); a refusal that names no field, or any other failure, as its message under `form`.
 */
export function formErrorsOf(error: unknown): Record<string, string> {
  if (isApiError(error) && error.fieldErrors.length > 0) return byField(error.fieldErrors);
  return { form: error instanceof Error ? error.message : fallbackMessage };
}
