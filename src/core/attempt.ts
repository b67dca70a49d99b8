import { ErrorCode } from '../generated/errors.js';
import type { RawResponse } from './api-promise.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  MatchVenueError,
  OutcomeUnknownError,
  withAttempts,
} from './error.js';
import { redactText } from './logger.js';
import type { FinalRequest } from './request.js';
import { type Failure, failureOf, successOf } from './response.js';
import type { RetrySettings } from './retry.js';
import { neverSent, type Transport, type TransportResponse, TransportTimeoutError } from './transport.js';
import type { UnknownKeys } from './unknown-keys.js';

// One attempt of the pipeline (core/api-client.ts) and the error a call ends with: what an attempt
// met, whether it may have reached the server, and when that leaves the outcome unknown.

/** 409 137004: the key is held by a different request, so this call's request never became it. */
export function answersForKey(error: MatchVenueError): boolean {
  const apiError = error as Partial<APIError>;
  return apiError.status === 409 && apiError.venueCode === ErrorCode.IdempotencyKeyReused;
}

/** The error of a call its caller's signal aborted (it carries the key, to settle the call with). */
export function abortError(req: FinalRequest<unknown>): APIUserAbortError {
  return new APIUserAbortError('Request was aborted.', {
    cause: req.signal?.reason,
    idempotencyKey: req.idempotencyKey,
  });
}

/**
 * The error a call ends with after its last failure: the failure's own error, or an
 * OutcomeUnknownError when an attempt may have reached the server and nothing since was an answer
 * about the call's key (or the operation may not be sent again).
 */
export function finalError(
  unknownKeys: UnknownKeys,
  req: FinalRequest<unknown>,
  failure: Failure,
  ambiguous: boolean,
  attempts: number,
  settlesAt: number,
): MatchVenueError {
  // A timeout or connection error says how many attempts the call made.
  const error = withAttempts(failure.error, attempts);
  if (!ambiguous || error instanceof APIUserAbortError) return error;
  const key = req.idempotencyKey;
  // A read, or a change safe to repeat (modify, cancel: their refusals are settled from the
  // order), reports what its last attempt met.
  if (key === undefined && req.idempotent !== false) return error;
  // Once an earlier attempt may have reached the venue, a later attempt's refusal only says what
  // that attempt met (a cap that filled meanwhile, say): the earlier one can still be in flight
  // and land after it. Only an answer about the key itself settles the outcome.
  if (answersForKey(error)) return error;
  if (req.operation === undefined) return error;
  const entry = key === undefined ? undefined : unknownKeys.get(key);
  return new OutcomeUnknownError({
    operation: req.operation,
    idempotencyKey: key,
    attempts,
    request: req.body,
    settlesAt: entry?.settlesAt ?? settlesAt,
    cause: error,
  });
}

/** What an attempt needs of its client: where to send, what to scrub, how to read Retry-After. */
export interface AttemptContext {
  transport: Transport;
  secrets: readonly string[];
  retry: Pick<RetrySettings, 'maxRetryAfterMs' | 'now'>;
}

/** Sends one attempt: the raw success, or the failure with whether it may have reached the server. */
export async function attemptOnce(
  ctx: AttemptContext,
  req: FinalRequest<unknown>,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  limitMs: number,
  limitIsPerAttempt: boolean,
  attempt: number,
): Promise<{ raw: RawResponse } | Failure> {
  let response: TransportResponse | undefined;
  try {
    response = await ctx.transport({
      method: req.method,
      url,
      headers,
      body,
      signal: req.signal,
      timeoutMs: limitMs,
      attempt,
    });
    const text = await response.text();
    return successOf(response, text) ?? failureOf(response, text, ctx.secrets, ctx.retry);
  } catch (cause) {
    // Aborted in flight: the request may have reached the server all the same.
    if (req.signal?.aborted) return { error: abortError(req), retryable: false, ambiguous: true };
    if (cause instanceof TransportTimeoutError) {
      const what = limitIsPerAttempt ? `timed out after ${limitMs}ms` : `exceeded its total time budget`;
      return {
        error: new APIConnectionTimeoutError(`${req.method} ${req.path} ${what}.`, { cause }),
        retryable: true,
        ambiguous: true,
      };
    }
    if (cause instanceof MatchVenueError) return { error: cause, retryable: false, ambiguous: false };
    const detail = redactText(cause instanceof Error ? cause.message : String(cause), ctx.secrets);
    return {
      error: new APIConnectionError(`Connection error on ${req.method} ${req.path}: ${detail}`, { cause }),
      retryable: true,
      // A response that arrived but whose body broke off was certainly processed.
      ambiguous: response !== undefined || !neverSent(cause),
    };
  }
}
