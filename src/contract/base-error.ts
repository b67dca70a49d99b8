import { redact, redactText } from './redact.js';

// Kept apart from error.ts (which loads the generated error catalog) so that `match-venue/webhooks`
// can extend MatchVenueError for the cost of this file and the redaction. In the contract layer, so
// that the simulator (which imports only the contract) puts its errors on the same base.

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** Kinds of {@link APIError} and its subclasses: the server answered with an error status. */
export type APIErrorKind =
  | 'MV_API_ERROR'
  | 'MV_API_BAD_REQUEST'
  | 'MV_API_UNAUTHORIZED'
  | 'MV_API_FORBIDDEN'
  | 'MV_API_NOT_FOUND'
  | 'MV_API_CONFLICT'
  | 'MV_API_RATE_LIMITED'
  | 'MV_API_SERVER_ERROR';

/** Kinds of {@link APIConnectionError} and {@link APIConnectionTimeoutError}: no usable answer. */
export type ConnectionErrorKind = 'MV_CONNECTION' | 'MV_TIMEOUT';

/**
 * Every `WebhookErrorCode` of `match-venue/webhooks`, spelled out here rather than imported: core
 * may not import the webhooks layer, and the webhooks' code table is checked against this list
 * (`satisfies`, and test/types/error-kind.test-d.ts for the other direction).
 */
export type WebhookErrorKind =
  | 'WEBHOOK_BODY_NOT_RAW'
  | 'WEBHOOK_BODY_INVALID'
  | 'WEBHOOK_BODY_TOO_LARGE'
  | 'WEBHOOK_HEADER_MISSING'
  | 'WEBHOOK_SIGNATURE_INVALID'
  | 'WEBHOOK_SIGNATURE_VERSION_UNSUPPORTED'
  | 'WEBHOOK_CERT_URL_REJECTED'
  | 'WEBHOOK_CERT_FETCH_FAILED'
  | 'WEBHOOK_CERT_INVALID'
  | 'WEBHOOK_CERT_EXPIRED'
  | 'WEBHOOK_CERT_NOT_YET_VALID'
  | 'WEBHOOK_TOPIC_REJECTED'
  | 'WEBHOOK_SUBSCRIBE_URL_REJECTED'
  | 'WEBHOOK_CONFIRM_FAILED'
  | 'WEBHOOK_KEY_FETCH_FAILED'
  | 'WEBHOOK_KEY_INVALID'
  | 'WEBHOOK_KEY_ALGORITHM_UNSUPPORTED'
  | 'WEBHOOK_HANDLER_FAILED'
  | 'WEBHOOK_INTERNAL_ERROR'
  | 'WEBHOOK_CONFIG_INVALID';

/**
 * The kinds of the simulator's errors (`match-venue/simulator`): a refused option, file or document,
 * a store that cannot be used, a clock jump that cannot run. docs/ERRORS.md, Simulator errors.
 */
export type SimulatorErrorKind =
  | 'SIM_MARKET_INVALID'
  | 'SIM_SCENARIO_INVALID'
  | 'SIM_CASSETTE_INVALID'
  | 'SIM_SNAPSHOT_INVALID'
  | 'SIM_CLOCK_JUMP_TOO_LARGE'
  | 'SIM_CLOCK_JUMP_IN_PROGRESS'
  | 'SIM_STORE_IN_USE'
  | 'SIM_STORE_LAYOUT'
  | 'SIM_STORE_UNAVAILABLE'
  | 'SIM_STORE_WRITE_FAILED';

/**
 * The kinds of the testing layer's errors (`match-venue/testing`): a replay asked a request its
 * cassette does not hold. docs/ERRORS.md, Testing errors.
 */
export type TestingErrorKind = 'MV_REPLAY_UNRECORDED';

/**
 * Every `kind` an error of this package can carry (docs/ERRORS.md has the table), as a literal
 * union so that a misspelt `case` in a `switch (err.kind)` fails to compile. It is a list rather
 * than derived from the classes because the classes live in layers this file may not import (and
 * would close an import cycle); instead each class's static `kind` must be a member (the compiler
 * checks it against the base class), and test/types/error-kind.test-d.ts checks that every member
 * is some class's kind.
 */
export type MatchVenueErrorKind =
  | 'MV_ERROR'
  | APIErrorKind
  | ConnectionErrorKind
  | 'MV_ABORTED'
  | 'MV_VALIDATION'
  | 'MV_RESPONSE_VALIDATION'
  | 'MV_OUTCOME_UNKNOWN'
  | 'MV_INVALID_API_KEY'
  | 'MV_INVALID_CONFIG'
  | 'MV_INVALID_ARGUMENT'
  | 'MV_SUBSCRIPTION_PENDING'
  | 'MV_STREAM_GAVE_UP'
  | 'MV_WAIT_TIMEOUT'
  | 'MV_ORDER_FINAL'
  | WebhookErrorKind
  | SimulatorErrorKind
  | TestingErrorKind;

/** The `inspect` function node passes to a custom inspector. */
type Inspect = (value: unknown, options?: Record<string, unknown>) => string;

/**
 * Base class of every error this SDK throws, so one `instanceof` catches them all.
 *
 * Every error carries `kind`, a stable string naming what went wrong (`'MV_TIMEOUT'`,
 * `'WEBHOOK_SIGNATURE_INVALID'`, ... see docs/ERRORS.md), to match on instead of the message or
 * the class (a second copy of the package has its own classes; a log line has none). Each class has
 * one kind, also readable without an instance as the static `kind` (`err.kind ===
 * APIConnectionTimeoutError.kind`); `WebhookError` is the exception, with one kind per
 * `WebhookErrorCode`. `code` holds the same string as `kind` on every error, as jose names it; the
 * venue's numeric error code of an `APIError` is its `venueCode` (`136002`).
 *
 * Errors end up in logs and crash reports, so none may show the API key: the message, `util.inspect`
 * (which renders the stack, every field and the whole `cause` chain, including errors the SDK did not
 * make) and `JSON.stringify` all pass through the redaction the logger uses. Data kept from a
 * response (APIError) is also cleared of the exact key when the error is built.
 */
export class MatchVenueError extends Error {
  /**
   * The `kind` of every instance of exactly this class; undefined on a class whose instances carry
   * different kinds (`WebhookError`).
   */
  static readonly kind: MatchVenueErrorKind | undefined = 'MV_ERROR';

  /** The class name, as `Error` has it. */
  override name = 'MatchVenueError';
  /**
   * Stable machine-readable name of what went wrong, on every error (see docs/ERRORS.md): one of
   * the literals of {@link MatchVenueErrorKind}.
   */
  readonly kind: MatchVenueErrorKind;
  /**
   * The same string as `kind`, as jose and undici name it (`err.code === 'MV_TIMEOUT'`), on every
   * error. The venue's numeric error code of an `APIError` is its `venueCode`.
   */
  readonly code: MatchVenueErrorKind;
  /**
   * The client request id of the call that failed: sent on every attempt in the
   * `x-client-request-id` header (the client's `requestIdHeader`), so a timeout or connection
   * error that never got an answer can still be found in the venue's logs. Set by the request
   * pipeline on the error of a call that sent at least one request.
   */
  declare readonly clientRequestId?: string;
  /** Requests the failed call sent (its attempts), set with `clientRequestId`. */
  declare readonly attempts?: number;

  constructor(message?: string, options?: ErrorOptions) {
    // Messages quote what servers and transports said, which can include an echoed credential.
    super(message === undefined ? undefined : redactText(message), options);
    this.kind = (new.target as typeof MatchVenueError).kind ?? 'MV_ERROR';
    this.code = this.kind;
  }

  /** `JSON.stringify` form: the same enumerable fields, with secret fields and text redacted. */
  toJSON(): Record<string, unknown> {
    return redact({ ...this }) as Record<string, unknown>;
  }

  /**
   * `util.inspect` form: node's own rendering (stack, fields, cause chain), then redacted.
   * @internal
   */
  [INSPECT](depth: number | null, options: Record<string, unknown>, inspect: Inspect): string {
    if (depth !== null && depth < 0) return `[${this.name}]`;
    return redactText(inspect(this, { ...options, depth, customInspect: false }));
  }
}
