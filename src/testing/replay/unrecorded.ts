/**
 * The error of a request a cassette never saw, and the search for the recorded request nearest to
 * it, which the message names: a replay that fails should say what the bot did differently.
 */
import { MatchVenueError } from 'match-venue';
import type { CassetteRequest } from '../../contract/cassette.js';
import { describeRequest, type LiveRequest } from './request.js';

/** One recorded request, by its signature (the first exchange that carried it). */
export interface RecordedRequest {
  keyId: string | null;
  request: CassetteRequest;
  signature: string;
}

/**
 * A replay was asked a request its cassette does not hold (no recorded exchange has its key id,
 * method, path, query and body): the message names the request and the nearest recorded one.
 * Thrown to the calling client as is (it is not retried), answered as a 500 naming it under msw.
 */
export class UnrecordedRequestError extends MatchVenueError {
  static override readonly kind = 'MV_REPLAY_UNRECORDED';
  /** Always `UnrecordedRequestError`. */
  override name = 'UnrecordedRequestError';
  constructor(
    /** The request, described (method, path, query, key id, body; never a secret). */
    readonly request: string,
    /** The nearest recorded request, described; undefined when the cassette has no HTTP exchange. */
    readonly nearest: string | undefined,
    /** The cassette's file (or other source), when known. */
    readonly source?: string,
  ) {
    super(
      `${source ?? 'The cassette'} holds no recorded exchange for ${request}; ` +
        (nearest === undefined ? 'it records no HTTP exchange at all' : `the nearest recorded is ${nearest}`),
    );
  }
}

// Signatures are cut to this length before their edit distance is taken: the error path stays
// cheap on a cassette of long bodies, and the difference that matters is usually near the start.
const COMPARED = 400;

/** Levenshtein distance, two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The recorded request nearest `live`: among those of the same method and path if any (the same
 * endpoint, another body or key), else among all; the least edit distance between signatures, the
 * first recorded on a tie.
 */
export function nearestRecorded(
  live: LiveRequest,
  recorded: readonly RecordedRequest[],
): RecordedRequest | undefined {
  const sameEndpoint = recorded.filter(
    (r) => r.request.method === live.request.method && r.request.path === live.request.path,
  );
  const pool = sameEndpoint.length > 0 ? sameEndpoint : recorded;
  const target = live.signature.slice(0, COMPARED);
  let best: RecordedRequest | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of pool) {
    const distance = editDistance(target, candidate.signature.slice(0, COMPARED));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** The error for `live`, naming the nearest of `recorded`. */
export function unrecordedRequest(
  live: LiveRequest,
  recorded: readonly RecordedRequest[],
  source: string | undefined,
): UnrecordedRequestError {
  const nearest = nearestRecorded(live, recorded);
  return new UnrecordedRequestError(
    describeRequest(live.keyId, live.request),
    nearest && describeRequest(nearest.keyId, nearest.request),
    source,
  );
}
