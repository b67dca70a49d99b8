import type { MatchVenueError } from '../base-error.js';

// How a failed attempt or call is described to spans, metrics and events, apart from the call's
// bookkeeping (call.ts): read from the error alone.

/** `error.type` of a failed attempt or call: the status for an HTTP answer, else the error's kind. */
export function errorType(error: MatchVenueError | undefined, status: number | undefined): string {
  if (status !== undefined && status >= 400) return String(status);
  return error?.kind ?? 'Error';
}

/** `match_venue.outcome` of a call that failed with `error`. */
export function failedOutcome(error: unknown): string {
  const kind = (error as Partial<MatchVenueError> | null)?.kind;
  if (kind === 'MV_OUTCOME_UNKNOWN') return 'unknown';
  if (kind === 'MV_ABORTED') return 'aborted';
  return 'error';
}

/**
 * The venue's numeric error code of an APIError (`venueCode`), read without importing error.ts (the
 * generated catalog it loads): anything else has none.
 */
export function venueCodeOf(error: unknown): number | undefined {
  const code = (error as { venueCode?: unknown } | null)?.venueCode;
  return typeof code === 'number' ? code : undefined;
}
