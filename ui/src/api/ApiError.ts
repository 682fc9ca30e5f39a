import { envelopeFieldErrors, envelopeMessage, type FieldError } from './envelope';

/** Status used when the request never got an HTTP answer (network down, CORS, aborted). */
export const TRANSPORT_ERROR_STATUS = 500;

/** A failed API call: the HTTP status, the message to show and the field errors of the envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: FieldError[];
  /** The parsed answer body, for calls that carry more than the envelope (customPayload). */
  readonly body: unknown;

  constructor(status: number, message: string, fieldErrors: FieldError[] = [], body: unknown = undefined) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.body = body;
  }

  /** An error answer: the message is the first `errors[].message`, else `message`, else the transport message. */
  static fromResponse(status: number, body: unknown, transportMessage: string): ApiError {
    return new ApiError(status, envelopeMessage(body) ?? transportMessage, envelopeFieldErrors(body), body);
  }

  /** A request that got no answer at all; such errors count as status 500. */
  static fromTransport(cause: unknown): ApiError {
    const message = cause instanceof Error && cause.message !== '' ? cause.message : 'Network request failed';
    return new ApiError(TRANSPORT_ERROR_STATUS, message);
  }

  /** The first message reported for `field`, if any. */
  fieldMessage(field: string): string | undefined {
    return this.fieldErrors.find((error) => error.field === field)?.message;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
