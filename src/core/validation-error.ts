import { MatchVenueError } from './base-error.js';

// Apart from error.ts (the API and connection errors, which need the generated error catalog) to
// keep each file small; error.ts re-exports these, so every error class is still one import away.

/**
 * One rejected field of a request, found before anything was sent: the contract's error entry
 * (contract/error-details.ts) as the SDK reports it, `location` -> `path`, `message` -> `rule`,
 * `error` -> `kind`, so it names the field and rule as the venue's 400 would.
 */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `amount.amount`; empty for the whole input. */
  path: string;
  /** What rule failed, in words (e.g. "must be at least 100 and a multiple of 100"). */
  rule: string;
  /** The kind of rule that failed: `invalid_type`, `invalid_value`, `invalid_format`, `too_small`, `unrecognized_keys`, `invalid_union` or `custom`. */
  kind: string;
}

/** Input rejected by the client before sending; no request was made. */
export class ValidationError extends MatchVenueError {
  static override readonly kind = 'MV_VALIDATION';
  /** The class name. */
  override name = 'ValidationError';
  /** Every rejected field, each with its rule. */
  readonly issues: readonly ValidationIssue[];
  /** `context` names what was checked (`orders.place params`); the message lists each issue. */
  constructor(context: string, issues: readonly ValidationIssue[]) {
    const lines = issues.map((i) => `  - ${i.path || '(input)'}: ${i.rule}`);
    super(`Invalid ${context}:\n${lines.join('\n')}`);
    this.issues = issues;
  }
  /** Path of the first rejected field. */
  get path(): string {
    return this.issues[0]?.path ?? '';
  }
}

/** A success response whose body did not match the documented shape. */
export class ResponseValidationError extends MatchVenueError {
  static override readonly kind = 'MV_RESPONSE_VALIDATION';
  /** The class name. */
  override name = 'ResponseValidationError';
  /** The response's `x-request-id`; quote it when reporting the problem. */
  readonly requestId: string | undefined;
  /** Every field that did not match, each with its rule. */
  readonly issues: readonly ValidationIssue[];
  /**
   * Made by the client when a success body does not parse.
   * @internal
   */
  constructor(message: string, requestId: string | undefined, issues: readonly ValidationIssue[]) {
    super(requestId ? `${message} [request ${requestId}]` : message);
    this.requestId = requestId;
    this.issues = issues;
  }
}
