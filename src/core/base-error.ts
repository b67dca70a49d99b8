import { redact, redactText } from './logger.js';

// Kept apart from error.ts (which loads the generated error catalog) so that `match-venue/webhooks`
// can extend MatchVenueError for the cost of this file and the logger's redaction.

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

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
 * `WebhookErrorCode`. `code` holds the same string as `kind` on every error except `APIError` and
 * its subclasses, where `code` stays the venue's numeric error code (`136002`).
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
  static readonly kind: string | undefined = 'MV_ERROR';

  /** The class name, as `Error` has it. */
  override name = 'MatchVenueError';
  /** Stable machine-readable name of what went wrong, on every error (see docs/ERRORS.md). */
  readonly kind: string;
  /**
   * The same string as `kind`, as jose and undici name it; on `APIError` and its subclasses it is
   * the venue's numeric error code instead (their `kind` is the stable string).
   */
  readonly code: string | number | undefined;
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

/**
 * A call the SDK cannot carry out as made, found before anything was sent: an empty path
 * parameter, a per-call `timeout` that is not a positive number, an error handed to the wrong
 * `resolveUnknown`, `getNextPage()` on the last page, a test helper given the wrong key type.
 * Request parameters checked against the API's schemas fail as `ValidationError` instead.
 */
export class InvalidArgumentError extends MatchVenueError {
  static override readonly kind = 'MV_INVALID_ARGUMENT';
  /** The class name. */
  override name = 'InvalidArgumentError';
  declare readonly code: string;
}
