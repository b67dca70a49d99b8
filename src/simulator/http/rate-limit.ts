/** The simulator's rate limit: past `requests` per API key in a window, 429 with Retry-After. */
export interface RateLimitOptions {
  /** Requests allowed per key within each window. */
  requests: number;
  /** The window's length, ms. */
  windowMs: number;
}

/** Fixed-window counter per API key. Off unless configured. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly options: RateLimitOptions) {}

  /** 0 when allowed; else the milliseconds until the window reopens. */
  take(key: string, now: number): number {
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.options.windowMs) {
      this.windows.set(key, { start: now, count: 1 });
      return 0;
    }
    if (w.count < this.options.requests) {
      w.count++;
      return 0;
    }
    return w.start + this.options.windowMs - now;
  }
}
