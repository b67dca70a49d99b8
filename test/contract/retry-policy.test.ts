import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isPermanentRefusal,
  isRetryableStatus,
  REST_BACKOFF,
  STREAM_BACKOFF,
  sleep,
} from '../../src/contract/retry-policy.js';

describe('backoffDelay', () => {
  it('grows exponentially to the cap, with half of it jittered', () => {
    const opts = { initialDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: 'equal' as const };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, opts, () => 0))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, opts, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('full jitter: uniform below the ceiling, in whole milliseconds', () => {
    const opts = { initialDelayMs: 500, maxDelayMs: 1500, jitter: 'full' as const };
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, opts, () => 0.999))).toEqual([499, 999, 1498, 1498]);
    expect(backoffDelay(0, opts, () => 0)).toBe(0);
    expect(backoffDelay(1, opts, () => 0.5)).toBe(500);
  });

  it('one schedule per caller: REST retries full jitter, stream reconnects equal jitter', () => {
    expect(REST_BACKOFF).toEqual({ initialDelayMs: 500, maxDelayMs: 8000, jitter: 'full' });
    expect(STREAM_BACKOFF).toEqual({ initialDelayMs: 250, maxDelayMs: 10_000, factor: 2, jitter: 'equal' });
    expect(backoffDelay(0, STREAM_BACKOFF, () => 0)).toBe(125);
    expect(backoffDelay(0, REST_BACKOFF, () => 0)).toBe(0);
  });
});

describe('retryable statuses', () => {
  it('retries timeouts, rate limits and server errors; other 4xx are refusals for good', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 301, 400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
    expect([400, 401, 403, 404, 409, 422, 499].every(isPermanentRefusal)).toBe(true);
    expect([200, 301, 408, 429, 500, 503].some(isPermanentRefusal)).toBe(false);
  });
});

describe('sleep', () => {
  it('waits, and rejects with the reason when aborted (before or during the wait)', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const before = new AbortController();
    before.abort(new Error('before'));
    await expect(sleep(60_000, before.signal)).rejects.toThrow('before');
    const during = new AbortController();
    const waiting = sleep(60_000, during.signal);
    during.abort(new Error('during'));
    await expect(waiting).rejects.toThrow('during');
  });
});
