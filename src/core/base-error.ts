// The SDK's error base lives in the contract layer (contract/base-error.ts), shared with the
// simulator; re-exported here for the SDK's own importers. The errors of the SDK alone stay in core.
import { MatchVenueError } from '../contract/base-error.js';

export {
  type APIErrorKind,
  type ConnectionErrorKind,
  MatchVenueError,
  type MatchVenueErrorKind,
  type SimulatorErrorKind,
  type TestingErrorKind,
  type WebhookErrorKind,
} from '../contract/base-error.js';

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
}
