import { MatchVenueError } from '../core/base-error.js';

/**
 * What every iterator of a stream ends with when the stream stops reconnecting: `attempts`
 * consecutive connection attempts failed (the `reconnect.maxAttempts` option). A ticket the venue
 * refused for good ends the stream with that APIError instead, not with this.
 */
export class StreamGaveUpError extends MatchVenueError {
  static override readonly kind = 'MV_STREAM_GAVE_UP';
  override name = 'StreamGaveUpError';
  /** Consecutive failed connection attempts. */
  override readonly attempts: number;
  /** Why the last one failed, e.g. `socket closed (1006)` or `ticket request failed`. */
  readonly reason: string;

  constructor(attempts: number, reason: string) {
    super(`stream: gave up after ${attempts} failed connection attempts (${reason})`);
    this.attempts = attempts;
    this.reason = reason;
  }
}
