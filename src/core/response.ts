import type { RawResponse } from './api-promise.js';
import { type APIErrorDetail, type MatchVenueError, makeAPIError, ResponseValidationError } from './error.js';
import { redact, redactText } from './logger.js';
import { isRetryableStatus, type RetrySettings, retryAfterDelay } from './retry.js';
import type { TransportResponse } from './transport.js';
import { parseWith, type Schema } from './validation.js';

// How the pipeline reads what came back: a 2xx is kept raw (parsed on use), anything else becomes
// the matching APIError with what the retry loop needs to know about it.

const REQUEST_ID = 'x-request-id';

/** A failed attempt, as the retry loop sees it. */
export interface Failure {
  error: MatchVenueError;
  retryable: boolean;
  /** The request may have been processed by the server. */
  ambiguous: boolean;
  retryAfterMs?: number | undefined;
}

/** JSON text as a value, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 2xx as a RawResponse (kept for parsing on use); undefined for any other status. */
export function successOf(response: TransportResponse, text: string): { raw: RawResponse } | undefined {
  if (response.status < 200 || response.status >= 300) return undefined;
  const requestId = response.headers[REQUEST_ID];
  return { raw: { status: response.status, headers: response.headers, requestId, bodyText: text } };
}

/** A non-2xx answer as the matching APIError and its retry facts; `secrets` are scrubbed from it. */
export function failureOf(
  response: TransportResponse,
  text: string,
  secrets: readonly string[],
  retry: Pick<RetrySettings, 'maxRetryAfterMs' | 'now'>,
): Failure {
  const requestId = response.headers[REQUEST_ID];
  // A server that echoes the credential back must not put it into an error message or log line.
  const parsed = redact(parseJson(text), secrets);
  const obj = parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  const venueCode = typeof obj?.code === 'number' ? obj.code : undefined;
  const serverMessage =
    typeof obj?.message === 'string' ? obj.message : text ? text.slice(0, 500) : undefined;
  const errors = Array.isArray(obj?.errors) ? (obj.errors as APIErrorDetail[]) : undefined;
  const error = makeAPIError({
    status: response.status,
    venueCode,
    serverMessage,
    requestId,
    headers: response.headers,
    errors,
    body: parsed ?? redactText(text, secrets),
    secrets,
  });
  const retryable = isRetryableStatus(response.status);
  return {
    error,
    retryable,
    // 408 and 5xx may come after the work was done; 429 and other 4xx mean it was refused.
    ambiguous: response.status === 408 || response.status >= 500,
    retryAfterMs: retryable ? retryAfterDelay(response.headers, retry) : undefined,
  };
}

/**
 * The `data` member of a success body, checked with `schema` unless `validate` is false (then the
 * server's shape is trusted). A mismatch is ResponseValidationError naming the request.
 */
export function successData<T>(
  raw: RawResponse,
  schema: Schema<T>,
  validate: boolean,
  request: { method: string; path: string },
): T {
  const body = parseJson(raw.bodyText);
  const envelope = body !== null && typeof body === 'object' && 'data' in body ? body.data : undefined;
  if (!validate) return envelope as T;
  const result = parseWith(schema, envelope);
  if (result.ok) return result.value;
  throw new ResponseValidationError(
    `Unexpected response body for ${request.method} ${request.path}`,
    raw.requestId,
    result.issues,
  );
}
