import { isApiError } from '../../api';

const fallbackMessage = 'Something went wrong. Please try again.';

/**
 * Spreads a failed call over a form: field errors of a 422 onto their fields, and the message
 * (first errors[].message, else message) for the alert under the form.
 */
export function applyServerError(error: unknown, setErrors: (errors: Record<string, string>) => void): string {
  if (!isApiError(error)) return fallbackMessage;
  if (error.status === 422) {
    setErrors(Object.fromEntries(error.fieldErrors.flatMap((e) => (e.field ? [[e.field, e.message]] : []))));
  }
  return error.message;
}
