export interface BackoffOptions {
  /** First retry delay. Default 250 ms. */
  initialDelayMs?: number;
  /** Cap. Default 10 s. */
  maxDelayMs?: number;
  /** Growth per failed attempt. Default 2. */
  factor?: number;
}

/**
 * Exponential backoff with "equal jitter": half the capped delay is fixed, half random, so
 * clients knocked off together do not come back together, yet never retry instantly.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: () => number): number {
  const initial = opts.initialDelayMs ?? 250;
  const max = opts.maxDelayMs ?? 10_000;
  const factor = opts.factor ?? 2;
  const capped = Math.min(max, initial * factor ** Math.max(0, attempt));
  return capped / 2 + random() * (capped / 2);
}
