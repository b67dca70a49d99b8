/**
 * Outgoing webhook deliveries with retries and a readable log.
 *
 * Each delivery is one POST repeated on the retry schedule until the endpoint's answer counts as
 * success (v2: exactly 200; v1/SNS: any 2xx) or the schedule runs out. The same signed body is
 * resent on every attempt, as the real services do, so a receiver can deduplicate by message id.
 */

export type DeliveryKind = 'v1-confirmation' | 'v1-notification' | 'v2-notification';
export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  /** ISO time on the real clock (retries wait on real time, not the simulator clock). */
  at: string;
  /** The HTTP status the endpoint answered, absent on a network error or timeout. */
  status?: number;
  error?: string;
}

export interface DeliveryRecord {
  readonly id: string;
  readonly kind: DeliveryKind;
  readonly subscriptionId: string;
  readonly endpoint: string;
  readonly notificationType?: string;
  /** The SNS MessageId or the v2 notificationId. */
  readonly messageId: string;
  state: DeliveryState;
  readonly attempts: DeliveryAttempt[];
}

export interface DeliveryRequest {
  kind: DeliveryKind;
  subscriptionId: string;
  endpoint: string;
  notificationType?: string;
  messageId: string;
  headers: Record<string, string>;
  body: string;
}

/** Waits `ms`; should settle early (resolve or reject) when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface DeliveryQueueOptions {
  fetch: typeof fetch;
  /**
   * Asked right before every attempt (endpoint-guard.ts): a reason ends the delivery as `failed`
   * without a request, since the endpoint's name may have been rebound to a private address.
   */
  refusal?: (endpoint: string) => Promise<string | undefined>;
  /** Delays before the 2nd, 3rd, ... attempt; attempts = 1 + schedule length. */
  retrySchedule: readonly number[];
  sleep?: Sleep;
  /** Per-attempt timeout. */
  timeoutMs?: number;
  /** Oldest records are dropped beyond this many, so a long-running simulator stays bounded. */
  maxLogSize?: number;
  randomId?: () => string;
}

/** A retry timer, as node (ref/unref) or another runtime (a number) returns it. */
type RetryTimer = ReturnType<typeof setTimeout>;

function succeeded(kind: DeliveryKind, status: number): boolean {
  return kind === 'v2-notification' ? status === 200 : status >= 200 && status < 300;
}

export class DeliveryQueue {
  #options: DeliveryQueueOptions;
  readonly #log: DeliveryRecord[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #listeners = new Set<(record: DeliveryRecord) => void>();
  #closer = new AbortController();
  /** Timers of the default sleep: unref'd, so pending retries never keep a process alive... */
  readonly #timers = new Set<RetryTimer>();
  /** ...except while someone awaits idle() (or holds keepAlive()), who wants the retries to finish. */
  #keepers = 0;

  constructor(options: DeliveryQueueOptions) {
    this.#options = options;
  }

  /** Changes the retry schedule, sleep or timeout for deliveries started from now on. */
  configure(options: Partial<Pick<DeliveryQueueOptions, 'retrySchedule' | 'sleep' | 'timeoutMs'>>): void {
    this.#options = { ...this.#options, ...options };
  }

  /** Starts a delivery in the background and returns its (live) log record. */
  enqueue(request: DeliveryRequest): DeliveryRecord {
    const record: DeliveryRecord = {
      id: (this.#options.randomId ?? (() => crypto.randomUUID()))(),
      kind: request.kind,
      subscriptionId: request.subscriptionId,
      endpoint: request.endpoint,
      ...(request.notificationType === undefined ? {} : { notificationType: request.notificationType }),
      messageId: request.messageId,
      state: 'pending',
      attempts: [],
    };
    this.#log.push(record);
    const max = this.#options.maxLogSize ?? 1000;
    if (this.#log.length > max) this.#log.splice(0, this.#log.length - max);
    const run = this.#run(request, record, this.#closer.signal).finally(() => {
      this.#inFlight.delete(run);
      for (const listener of this.#listeners) listener(record);
    });
    this.#inFlight.add(run);
    return record;
  }

  /** Every delivery so far, oldest first (records are live: they update as attempts happen). */
  log(): readonly DeliveryRecord[] {
    return this.#log;
  }

  /** Called once per delivery when it ends (delivered or failed). */
  onSettled(listener: (record: DeliveryRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when no delivery is in flight, including ones started while waiting. */
  async idle(): Promise<void> {
    const release = this.keepAlive();
    try {
      while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    } finally {
      release();
    }
  }

  /**
   * Makes waiting retry timers keep the process alive until the returned function is called. By
   * default they do not: a script that leaves deliveries retrying exits when its own work is done
   * instead of hanging for the rest of the schedule (up to ~36 s by default).
   */
  keepAlive(): () => void {
    this.#keepers += 1;
    if (this.#keepers === 1) for (const timer of this.#timers) timer.ref?.();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#keepers -= 1;
      if (this.#keepers === 0) for (const timer of this.#timers) timer.unref?.();
    };
  }

  /** The default sleep: a timer that settles early on abort, unref'd unless {@link keepAlive} holds. */
  readonly #sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        this.#timers.delete(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      if (this.#keepers === 0) timer.unref?.();
      this.#timers.add(timer);
      signal.addEventListener('abort', done, { once: true });
    });

  /** Stops retrying, aborts attempts in flight and waits for them to end. */
  async close(): Promise<void> {
    this.#closer.abort();
    await this.idle();
  }

  /** Forgets the log and cancels whatever is in flight, then accepts new deliveries again. */
  async reset(): Promise<void> {
    await this.close();
    this.#log.length = 0;
    this.#closer = new AbortController();
  }

  async #run(request: DeliveryRequest, record: DeliveryRecord, closed: AbortSignal): Promise<void> {
    const delays = [0, ...this.#options.retrySchedule];
    const sleep = this.#options.sleep ?? this.#sleep;
    const timeoutMs = this.#options.timeoutMs ?? 5000;
    for (const [index, delay] of delays.entries()) {
      if (index > 0) await sleep(delay, closed).catch(() => undefined);
      if (closed.aborted) break;
      const refused = await this.#options.refusal?.(request.endpoint);
      if (refused !== undefined) {
        // Final: retrying would knock on the same address; the reason names no path or query.
        record.attempts.push({ at: new Date().toISOString(), error: `not sent: ${refused}` });
        break;
      }
      const attempt = await this.#attempt(request, closed, timeoutMs);
      record.attempts.push(attempt);
      if (attempt.status !== undefined && succeeded(request.kind, attempt.status)) {
        record.state = 'delivered';
        return;
      }
    }
    record.state = 'failed';
  }

  async #attempt(request: DeliveryRequest, closed: AbortSignal, timeoutMs: number): Promise<DeliveryAttempt> {
    // Wall clock, not the simulator's: an attempt is a real POST on real retry timers, and a
    // manual clock would stamp every retry of a delivery with the same instant.
    const at = new Date().toISOString();
    const signal = AbortSignal.any([closed, AbortSignal.timeout(timeoutMs)]);
    try {
      const response = await this.#options.fetch(request.endpoint, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        signal,
        redirect: 'manual',
      });
      // Drain the body so keep-alive sockets are released.
      await response.arrayBuffer().catch(() => undefined);
      return { at, status: response.status };
    } catch (error) {
      return { at, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
