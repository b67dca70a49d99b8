import { type ErrorCodeInfo, lookupErrorCode } from '../generated/errors.js';
import { type APIErrorKind, type ConnectionErrorKind, MatchVenueError } from './base-error.js';
import { redact, redactHeaders, redactText } from './logger.js';
import { isRetryableStatus } from './retry.js';

export {
  type APIErrorKind,
  type ConnectionErrorKind,
  InvalidArgumentError,
  MatchVenueError,
  type MatchVenueErrorKind,
  type SimulatorErrorKind,
  type TestingErrorKind,
  type WebhookErrorKind,
} from './base-error.js';
export { OutcomeUnknownError, type UnknownOutcomeOperation } from './outcome-error.js';
export { ResponseValidationError, ValidationError, type ValidationIssue } from './validation-error.js';
export { OrderFinalError, WaitTimeoutError } from './wait-errors.js';

/** One entry of the platform's extended error body (`errors: [...]` on code 2 responses). */
export interface APIErrorDetail {
  /** The kind of failure. */
  error?: string;
  /** Human-readable description. */
  message?: string;
  /** Where the field is, e.g. `amount.amount`. */
  location?: string;
  /** The value that was refused. */
  invalidValue?: unknown;
  /** The rules the value broke. */
  constraints?: Record<string, unknown>;
  /** Fields this version does not know are kept. */
  [key: string]: unknown;
}

/** Response headers as a plain object with lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * What an APIError is built from: the response's status, body and headers.
 * Not exported by any entry (left in the published types where a declaration needs it).
 */
export interface APIErrorInit {
  status: number;
  /** The venue's numeric error code from the body, when it carried one. */
  venueCode: number | undefined;
  serverMessage: string | undefined;
  requestId: string | undefined;
  headers: ResponseHeaders;
  errors: readonly APIErrorDetail[] | undefined;
  body: unknown;
  /**
   * Exact strings (the API key) to remove from everything the error keeps: headers, body, details,
   * message. Used while building the error, never stored.
   */
  secrets?: readonly string[];
}

/** The server answered with a non-2xx status. */
export class APIError extends MatchVenueError {
  static override readonly kind: APIErrorKind = 'MV_API_ERROR';
  /** The class name. */
  override name = 'APIError';
  /** `MV_API_ERROR`, or the kind of the status's subclass. */
  declare readonly kind: APIErrorKind;
  /** HTTP status of the response. */
  readonly status: number;
  /** `MV_API_ERROR`, or the kind of the status's subclass: the same string as `kind`. */
  declare readonly code: APIErrorKind;
  /**
   * The venue's numeric error code from the body (`{ code, message }`), when the body carried one
   * (`ErrorCode.AuctionSettling`, `136002`); the SDK's stable string is `kind` (and `code`).
   */
  readonly venueCode: number | undefined;
  /** The message exactly as the server sent it. */
  readonly serverMessage: string | undefined;
  /** Value of the `x-request-id` response header; quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /**
   * Response headers with lower-case names. Credential and cookie headers read `[redacted]`, and the
   * API key is removed from every other value (a server may echo it).
   */
  readonly headers: ResponseHeaders;
  /** The platform's extended error details (code 2 bodies), kept as sent. */
  readonly errors: readonly APIErrorDetail[];
  /** Catalog metadata of `venueCode` (name, meaning, retryable), when the code is in the catalog. */
  readonly info: ErrorCodeInfo | undefined;
  /** The parsed error body, or the raw text when it was not JSON. */
  readonly body: unknown;

  /**
   * Made by the client from a non-2xx response.
   * @internal
   */
  constructor(unsafe: APIErrorInit) {
    const init = redactInit(unsafe);
    const info = init.venueCode === undefined ? undefined : lookupErrorCode(init.venueCode);
    super(describe(init, info));
    this.status = init.status;
    this.venueCode = init.venueCode;
    this.serverMessage = init.serverMessage;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.errors = init.errors ?? [];
    this.info = info;
    this.body = init.body;
  }

  /** True when the catalog marks the code retryable (or, without a code, the status is). */
  get retryable(): boolean {
    if (this.info) return this.info.retryable;
    return isRetryableStatus(this.status);
  }
}

/** Everything an APIError keeps from the response, cleared of the key before it is stored. */
function redactInit(init: APIErrorInit): APIErrorInit {
  const secrets = init.secrets ?? [];
  const text = (value: string | undefined) => (value === undefined ? undefined : redactText(value, secrets));
  return {
    status: init.status,
    venueCode: init.venueCode,
    serverMessage: text(init.serverMessage),
    requestId: text(init.requestId),
    headers: redactHeaders(init.headers, secrets),
    errors: init.errors === undefined ? undefined : (redact(init.errors, secrets) as APIErrorDetail[]),
    body: redact(init.body, secrets),
  };
}

/** What a status says by itself, for a code that arrives with another status than its catalog entry's. */
const STATUS_MEANING: Readonly<Record<number, string>> = {
  404: 'Not found: no such route, or no such resource for this account',
};

/**
 * The catalog's meaning of the code, when it arrived with the status the catalog gives it. The
 * generic code 2 is catalogued with 400 (its meaning lists malformed-request causes); the same code
 * on a 404 (a path the server does not know) is not described by that list, so the status speaks.
 */
function meaningOf(status: number, info: ErrorCodeInfo | undefined): string | undefined {
  if (!info) return undefined;
  if (info.http === null || info.http === status) return info.meaning;
  return STATUS_MEANING[status];
}

function describe(init: APIErrorInit, info: ErrorCodeInfo | undefined): string {
  const parts = [String(init.status)];
  if (init.venueCode !== undefined)
    parts.push(info ? `${info.name} (code ${init.venueCode})` : `code ${init.venueCode}`);
  let text = parts.join(' ');
  const meaning = meaningOf(init.status, info);
  if (meaning) text += `: ${meaning}`;
  if (init.serverMessage && init.serverMessage !== meaning) {
    text += `${meaning ? ' —' : ':'} ${init.serverMessage}`;
  }
  for (const detail of init.errors ?? []) {
    const where = detail.location ? `${detail.location}: ` : '';
    if (detail.message) text += `\n  - ${where}${detail.message}`;
  }
  if (init.requestId) text += ` [request ${init.requestId}]`;
  return text;
}

/** 400 (kind `MV_API_BAD_REQUEST`): the request was refused as it stands; `venueCode` says why. */
export class BadRequestError extends APIError {
  static override readonly kind = 'MV_API_BAD_REQUEST';
  /** The class name. */
  override name = 'BadRequestError';
}
/** 401 (kind `MV_API_UNAUTHORIZED`): the API key is missing, malformed or not accepted. */
export class AuthenticationError extends APIError {
  static override readonly kind = 'MV_API_UNAUTHORIZED';
  /** The class name. */
  override name = 'AuthenticationError';
}
/** 403 (kind `MV_API_FORBIDDEN`): the key is valid but may not do this. */
export class PermissionDeniedError extends APIError {
  static override readonly kind = 'MV_API_FORBIDDEN';
  /** The class name. */
  override name = 'PermissionDeniedError';
}
/** 404 (kind `MV_API_NOT_FOUND`): no such resource for this account. */
export class NotFoundError extends APIError {
  static override readonly kind = 'MV_API_NOT_FOUND';
  /** The class name. */
  override name = 'NotFoundError';
}
/** 409 (kind `MV_API_CONFLICT`): e.g. an idempotency key reused with other parameters, or a self-match. */
export class ConflictError extends APIError {
  static override readonly kind = 'MV_API_CONFLICT';
  /** The class name. */
  override name = 'ConflictError';
}
/** 429 (kind `MV_API_RATE_LIMITED`): too many requests; the client retries these on its own first. */
export class RateLimitError extends APIError {
  static override readonly kind = 'MV_API_RATE_LIMITED';
  /** The class name. */
  override name = 'RateLimitError';
}
/** 5xx (kind `MV_API_SERVER_ERROR`): the server failed; the client retries these on its own first. */
export class InternalServerError extends APIError {
  static override readonly kind = 'MV_API_SERVER_ERROR';
  /** The class name. */
  override name = 'InternalServerError';
}

/** Builds the APIError subclass that matches the HTTP status. */
export function makeAPIError(init: APIErrorInit): APIError {
  switch (init.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return new RateLimitError(init);
    default:
      return init.status >= 500 ? new InternalServerError(init) : new APIError(init);
  }
}

/** No usable HTTP response arrived (refused, reset, DNS, TLS...). */
export class APIConnectionError extends MatchVenueError {
  static override readonly kind: ConnectionErrorKind = 'MV_CONNECTION';
  /** The class name. */
  override name = 'APIConnectionError';
  /** `MV_CONNECTION`, or `MV_TIMEOUT` for {@link APIConnectionTimeoutError}. */
  declare readonly kind: ConnectionErrorKind;
  /**
   * How many attempts the call made, retries included (the message says it too). Set on every one
   * the client throws; undefined only on one built by other code.
   */
  override readonly attempts: number | undefined;
  constructor(message = 'Connection error.', options?: { cause?: unknown; attempts?: number }) {
    super(message, options);
    this.attempts = options?.attempts;
  }
}

/** An attempt exceeded `timeout`, or the call exceeded its `totalTimeout` budget. */
export class APIConnectionTimeoutError extends APIConnectionError {
  static override readonly kind = 'MV_TIMEOUT';
  /** The class name. */
  override name = 'APIConnectionTimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown; attempts?: number }) {
    super(message, options);
  }
}

/**
 * The error a call ends with, made from its last attempt's: the same class and cause, with the
 * number of attempts in `attempts` and in the message. Each attempt's error is built before the
 * retry loop knows whether it is the last, so the count is added here rather than there.
 * Not exported by any entry (left in the published types where a declaration needs it).
 */
export function withAttempts<E extends MatchVenueError>(error: E, attempts: number): E {
  if (!(error instanceof APIConnectionError) || error.attempts !== undefined) return error;
  const Class = error instanceof APIConnectionTimeoutError ? APIConnectionTimeoutError : APIConnectionError;
  const made = attempts === 1 ? '1 attempt was made' : `${attempts} attempts were made`;
  const message = `${error.message.replace(/\.$/, '')} (${made}).`;
  return new Class(message, { cause: error.cause, attempts }) as MatchVenueError as E;
}

/** The caller's AbortSignal fired. */
export class APIUserAbortError extends MatchVenueError {
  static override readonly kind = 'MV_ABORTED';
  /** The class name. */
  override name = 'APIUserAbortError';
  /** Set on place/withdrawal calls: the key to look the order up or resend with. */
  readonly idempotencyKey: string | undefined;
  constructor(
    message = 'Request was aborted.',
    options?: { cause?: unknown; idempotencyKey?: string | undefined },
  ) {
    super(message, options);
    this.idempotencyKey = options?.idempotencyKey;
  }
}

/**
 * The client cannot be built from its options and environment variables: no API key or base URL, an
 * unknown `environment` or log level, a base URL that is not https (outside loopback), a limit that
 * is not a positive number. Thrown by `new MatchVenue(...)` (and by the first streaming call for
 * a missing WebSocket URL), before any request. A malformed key is `InvalidApiKeyError`. Also the
 * rejection of the first call of a feature whose code loads on first use (the account mirror, the
 * waits, an observed call's telemetry) when that code cannot be loaded: a `dist/` copied without
 * its chunks, say.
 */
export class ConfigurationError extends MatchVenueError {
  static override readonly kind = 'MV_INVALID_CONFIG';
  /** The class name. */
  override name = 'ConfigurationError';
}

/**
 * True when `err` is an APIError (optionally with the given venue error code); narrows the type so
 * `err.venueCode` is that literal code.
 */
export function isApiError(err: unknown): err is APIError;
export function isApiError<C extends number>(
  err: unknown,
  venueCode: C,
): err is APIError & {
  /** The venue code asked for. */
  readonly venueCode: C;
};
export function isApiError(err: unknown, venueCode?: number): boolean {
  return err instanceof APIError && (venueCode === undefined || err.venueCode === venueCode);
}
