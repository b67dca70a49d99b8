/**
 * When a failed call is worth another attempt, and how long to wait before it. Part of the contract
 * layer: REST retries (core/retry.ts), stream reconnects and stream resync reads (src/stream/) all
 * take their status rule, backoff math and wait from here, so they cannot drift apart.
 */

/** Statuses worth another attempt: timeout, rate limit, and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * A refusal that no later attempt can get past (401, 403, 137010...): any 4xx that is not
 * retryable. Anything else that failed (no status, 3xx, 408, 429, 5xx) may heal by itself.
 */
export function isPermanentRefusal(status: number): boolean {
  return status >= 400 && status < 500 && !isRetryableStatus(status);
}

/**
 * How the random part of a backoff delay is drawn below its ceiling (the capped exponential):
 * - 'full': uniform in [0, ceiling). Spreads a crowd of retrying callers the most; a first retry
 *   may come at once, which suits a request whose failure was one slow or lost answer.
 * - 'equal': half the ceiling fixed, half uniform. Never comes back at once, which suits
 *   reconnects: every client of a server that dropped them all would otherwise be back together.
 */
export type Jitter = 'full' | 'equal';

export interface BackoffPolicy {
  /** Ceiling of the first wait, in ms. */
  initialDelayMs: number;
  /** Largest ceiling, in ms. */
  maxDelayMs: number;
  /** Growth of the ceiling per failed attempt. Default 2. */
  factor?: number;
  jitter: Jitter;
}

/** The REST client's schedule (client option `retry` overrides the delays). */
export const REST_BACKOFF: Readonly<BackoffPolicy> = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  jitter: 'full',
};

/** The stream's schedule for reconnects and resync reads (stream option `reconnect` overrides it). */
export const STREAM_BACKOFF: Readonly<BackoffPolicy> = {
  initialDelayMs: 250,
  maxDelayMs: 10_000,
  factor: 2,
  jitter: 'equal',
};

/**
 * The wait before retry number `attempt` (0 for the first retry), in whole milliseconds: exponential
 * growth from `initialDelayMs`, capped at `maxDelayMs`, jittered as the policy says. `random` is
 * uniform in [0, 1) (tests pass a fixed one).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const factor = policy.factor ?? 2;
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * factor ** Math.max(0, attempt));
  const fixed = policy.jitter === 'equal' ? ceiling / 2 : 0;
  return Math.floor(fixed + random() * (ceiling - fixed));
}

/** Waits `ms`; rejects with the signal's reason when `signal` aborts (at once if it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
