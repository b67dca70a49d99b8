import { InvalidArgumentError } from '../base-error.js';
import type { Logger } from '../logger.js';

// `venue.on('request' | 'response' | 'retry', listener)`: the per-attempt events, in the spirit of
// stripe-node's request and response events. Payloads are built only while a listener is
// registered, are redacted like log lines, and carry a body only for a listener that asked for it.
// A listener that throws is reported to the client's logger and never reaches the call.

/** What every request event names. */
export interface RequestEventBase {
  /** The client request id, the same on every attempt of one call (sent as `x-client-request-id`). */
  requestId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The SDK method (`orders.place`), or `METHOD /path` for a request sent outside the endpoint table. */
  name: string;
  /** The endpoint table's operationId, when the request is one of its operations. */
  operation: string | undefined;
  /** The HTTP method. */
  method: string;
  /** The full URL, query included, with anything secret-looking redacted. */
  url: string;
  /** The idempotency key the request carries (keyed calls). */
  idempotencyKey: string | undefined;
}

/** An HTTP attempt about to be sent. */
export interface RequestEvent extends RequestEventBase {
  /** Request headers; credentials read `[redacted]`. */
  headers: Record<string, string>;
  /** The JSON body, redacted; present only for a listener registered with `{ body: true }`. */
  body?: unknown;
}

/** An HTTP attempt that ended: with a response (any status), or with the failure that stands for one. */
export interface ResponseEvent extends RequestEventBase {
  /** The HTTP status; undefined when no response arrived (timeout, connection error, abort). */
  status: number | undefined;
  /** The venue's `x-request-id`, when it answered. */
  serverRequestId: string | undefined;
  /** Wall-clock milliseconds from sending to the end of the body. */
  durationMs: number;
  /** The failure (a non-2xx included), when the attempt failed. */
  error?: AttemptError;
  /** True when the attempt failed after the request may have reached the venue. */
  ambiguous?: boolean;
  /** The response body as text, redacted; present only for a listener registered with `{ body: true }`. */
  body?: string;
}

/** A retry decided: the failed attempt, and how long the client waits before the next. */
export interface RetryEvent extends RequestEventBase {
  /** The attempt that failed. */
  attempt: number;
  /** The attempt that follows the wait. */
  nextAttempt: number;
  /** The wait, in ms (Retry-After or backoff). */
  delayMs: number;
  /** Why: the failed attempt's status and error kind. */
  reason: RetryReason;
}

/** How an attempt failed. */
export interface AttemptError {
  /** The error's stable `kind` (`MV_TIMEOUT`, `MV_API_SERVER_ERROR`, ...). */
  kind: string;
  /** The venue's numeric error code (`venueCode`) of an HTTP answer that carried one. */
  venueCode: number | undefined;
  /** The error message, redacted. */
  message: string;
}

/** Why a retry was decided. */
export interface RetryReason {
  /** The failed attempt's HTTP status, when it got an answer. */
  status: number | undefined;
  /** The failed attempt's error kind. */
  kind: string;
}

/** The events of `venue.on`. */
export interface ClientEvents {
  /** An attempt about to be sent. */
  request: RequestEvent;
  /** An attempt that ended. */
  response: ResponseEvent;
  /** A retry decided. */
  retry: RetryEvent;
}

/** Options of `venue.on`. */
export interface ListenerOptions {
  /** Include the (redacted) request or response body in this listener's events. Default false. */
  body?: boolean;
}

type Listener<E extends keyof ClientEvents> = (event: ClientEvents[E]) => void;

interface Entry {
  listener: (event: never) => void;
  body: boolean;
}

export class Hooks {
  readonly #entries: Record<keyof ClientEvents, Entry[]> = { request: [], response: [], retry: [] };
  readonly #log: () => Logger;
  /** Listeners registered, over every event: the pipeline's one check. */
  count = 0;

  constructor(log: () => Logger) {
    this.#log = log;
  }

  on<E extends keyof ClientEvents>(event: E, listener: Listener<E>, options?: ListenerOptions): () => void {
    const list = this.#entries[event];
    if (list === undefined || typeof listener !== 'function') {
      throw new InvalidArgumentError(
        `venue.on: the event must be 'request', 'response' or 'retry' and the listener a function, got ${String(event)}`,
      );
    }
    // Copy on write: an emit in progress keeps the list it started with.
    const entry: Entry = { listener: listener as (event: never) => void, body: options?.body === true };
    this.#entries[event] = [...list, entry];
    this.count++;
    let registered = true;
    return () => {
      if (!registered) return;
      registered = false;
      this.#entries[event] = this.#entries[event].filter((e) => e !== entry);
      this.count--;
    };
  }

  #report(name: string, err: unknown): void {
    this.#log().error(`venue.on('${name}') listener threw; the call goes on`, {
      error: err instanceof Error ? err.message : String(err),
    });
  }

  /** Whether `event` has a listener. */
  has(event: keyof ClientEvents): boolean {
    return this.#entries[event].length > 0;
  }

  /** Whether some listener of `event` asked for bodies. */
  wantsBody(event: keyof ClientEvents): boolean {
    return this.#entries[event].some((e) => e.body);
  }

  /**
   * Calls each listener of `event`: those that asked for bodies get `withBody` (when given), the
   * others `event`. A listener that throws is logged and skipped.
   */
  emit<E extends keyof ClientEvents>(name: E, event: ClientEvents[E], withBody?: ClientEvents[E]): void {
    for (const entry of this.#entries[name]) {
      try {
        const returned: unknown = (entry.listener as Listener<E>)(
          entry.body && withBody !== undefined ? withBody : event,
        );
        // An async listener's rejection would otherwise be unhandled (and end the process).
        if (returned instanceof Promise) returned.catch((err: unknown) => this.#report(name, err));
      } catch (err) {
        this.#report(name, err);
      }
    }
  }
}
