import {
  backoffDelay as contractBackoffDelay,
  isRetryableStatus,
  REST_BACKOFF,
  sleep,
} from '../contract/retry-policy.js';

// The retry policy itself (retryable statuses, backoff math, the wait) is the contract's; this file
// holds the REST client's tunables and Retry-After handling. Re-exported for the client's modules.
export { isRetryableStatus, sleep };

/**
 * Backoff tuning of the client's retries (`new MatchVenue({ retry })`); each field defaults to the
 * value its comment names.
 */
export interface RetryOptions {
  /** First backoff ceiling in ms (doubles per attempt). Default 500. */
  initialDelayMs?: number;
  /** Largest backoff ceiling in ms. Default 8000. */
  maxDelayMs?: number;
  /** Largest wait a server's Retry-After may impose, in ms. Default 60000. */
  maxRetryAfterMs?: number;
  /**
   * Waits `ms`; rejects when `signal` aborts. Tests inject it to observe delays.
   * @internal
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Uniform [0, 1) for jitter. Tests inject it.
   * @internal
   */
  random?: () => number;
  /**
   * Wall clock in ms, for deadlines and Retry-After dates. Tests inject it.
   * @internal
   */
  now?: () => number;
}

/**
 * Tunables of the retry loop, every one set: the client options' `retry` over the defaults
 * (client/config.ts). The injectable `sleep`, `random` and `now` are no public option: they are
 * marked internal in {@link RetryOptions}, so the published types and the docs leave them out.
 */
export type RetrySettings = Required<RetryOptions>;

/**
 * The wait before REST retry number `retry` (0 first): the contract's backoff with REST's full
 * jitter, under the client's delays and random source. Uniform in [0, min(max, initial * 2^retry)).
 */
export function backoffDelay(retry: number, settings: RetrySettings): number {
  const { initialDelayMs, maxDelayMs } = settings;
  return contractBackoffDelay(retry, { ...REST_BACKOFF, initialDelayMs, maxDelayMs }, settings.random);
}

/**
 * The wait a response asks for: `retry-after-ms`, or `retry-after` as delta-seconds or an
 * HTTP date; capped at `maxRetryAfterMs`. Undefined when absent or unreadable.
 */
export function retryAfterDelay(
  headers: Readonly<Record<string, string>>,
  settings: Pick<RetrySettings, 'maxRetryAfterMs' | 'now'>,
): number | undefined {
  let ms: number | undefined;
  const msHeader = headers['retry-after-ms'];
  if (msHeader !== undefined && /^\d+(\.\d+)?$/.test(msHeader.trim())) ms = Number(msHeader);
  const header = headers['retry-after']?.trim();
  if (ms === undefined && header) {
    if (/^\d+(\.\d+)?$/.test(header)) ms = Number(header) * 1000;
    else {
      const at = Date.parse(header);
      if (!Number.isNaN(at)) ms = Math.max(0, at - settings.now());
    }
  }
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  return Math.min(Math.ceil(ms), settings.maxRetryAfterMs);
}
