/**
 * The errors `@tock/client` throws, and the one table that maps an HTTP status to a class.
 *
 * ```
 * TockError                 base; construction errors (missing_token, invalid_port, invalid_timeout)
 * ├── ValidationError       400  the request was refused as invalid (`details` per field)
 * ├── AuthError             401  bad token or clock; also any status whose response was not
 * │                              signed by Tock (code bad_response_signature)
 * ├── NotFoundError         404  unknown activity or route
 * ├── ReplayError           409  nonce reused, or an idempotency key reused with another body
 * ├── UnavailableError      503  the app has not wired that operation yet
 * ├── HttpError             any other non-2xx: 423 (code license_locked), 429 (`retryAfter`), 5xx, …
 * └── NetworkError          no response: connection refused, reset or timed out (`cause` kept)
 * ```
 *
 * Messages are the server's own (for HTTP errors) or written here; none ever contains the
 * token or a signature.
 */

import type { FieldProblem } from '@tock/protocol';

/** What an error carries besides its message. */
export interface TockErrorInit {
  /** Machine-readable code: the server's `code`, or one of the client's own. */
  code: string;
  /** HTTP status received; absent when no response arrived (or for construction errors). */
  status?: number | undefined;
  /** Per-field problems, on validation errors. */
  details?: FieldProblem[] | undefined;
  /** Seconds to wait before trying again, on 429. */
  retryAfter?: number | undefined;
  /** The underlying failure, kept for debugging. */
  cause?: unknown;
}

/**
 * Base class of every error the client throws. `code` is always set; `status` is the HTTP
 * status when a response arrived.
 */
export class TockError extends Error {
  override name = 'TockError';
  readonly code: string;
  readonly status: number | undefined;
  readonly details: FieldProblem[] | undefined;
  readonly retryAfter: number | undefined;

  constructor(message: string, init: TockErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
  }
}

/** 400: the server refused the request as invalid; `details` names the fields. */
export class ValidationError extends TockError {
  override name = 'ValidationError' as const;
  declare readonly status: number;
}

/**
 * 401: the token or the clock was refused — or, with code `bad_response_signature`, the
 * response (of whatever status) was not signed by Tock: something else answered on the port.
 */
export class AuthError extends TockError {
  override name = 'AuthError' as const;
  declare readonly status: number;
}

/** 404: the activity (or route) does not exist. */
export class NotFoundError extends TockError {
  override name = 'NotFoundError' as const;
  declare readonly status: number;
}

/** 409: a nonce was reused, or an idempotency key was reused with another request. */
export class ReplayError extends TockError {
  override name = 'ReplayError' as const;
  declare readonly status: number;
}

/** 503: the app is running but does not serve this operation (yet). */
export class UnavailableError extends TockError {
  override name = 'UnavailableError' as const;
  declare readonly status: number;
}

/** Any other non-2xx status: 423 `license_locked`, 429 `locked_out` (with `retryAfter`), 5xx, … */
export class HttpError extends TockError {
  override name = 'HttpError' as const;
  declare readonly status: number;
}

/**
 * No usable response arrived: the connection was refused or reset, or the request timed out
 * (code `timeout`). `status` is absent; `cause` holds the runtime's own error.
 */
export class NetworkError extends TockError {
  override name = 'NetworkError' as const;
  declare readonly status: undefined;
}

/** The class for each status that has its own; every other non-2xx is an {@link HttpError}. */
const ERROR_CLASS_BY_STATUS: Readonly<Record<number, typeof TockError>> = {
  400: ValidationError,
  401: AuthError,
  404: NotFoundError,
  409: ReplayError,
  503: UnavailableError,
};

/**
 * The error for a non-2xx response of `status`, chosen by the status→class table above.
 * `init.status` is set from `status`.
 */
export function errorForStatus(status: number, message: string, init: Omit<TockErrorInit, 'status'>): TockError {
  const ErrorClass = ERROR_CLASS_BY_STATUS[status] ?? HttpError;
  return new ErrorClass(message, { ...init, status });
}
