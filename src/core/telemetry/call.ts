import type { RawResponse } from '../api-promise.js';
import type { Failure } from '../response.js';
import type { AttemptOutcome, CallFacts, TelemetryHost, TracedRequest } from './call-facts.js';
import { channels, type Channels, tracingActive } from './channels.js';
import { loadObservedCall } from './load.js';
import { ATTEMPT_HEADER } from './names.js';
import { otelRegistered } from './otel.js';
import type { ObservedCall } from './observed-call.js';

// One SDK call as the telemetry sees it. Always: a client request id, sent with the attempt number
// on every attempt, and put on the error the call fails with. Only while something listens (a
// hook, a diagnostics_channel subscriber, a registered OpenTelemetry provider): spans, metrics and
// event payloads, built by observed-call.ts, which loads the first time a call is observed. The
// check is made once per call, so a call nobody observes builds none of it and loads none of it.

export type { AttemptOutcome, CallFacts, TelemetryHost, TracedRequest } from './call-facts.js';

export class CallTrace implements CallFacts {
  readonly requestId: string = globalThis.crypto.randomUUID();
  attempt = 0;
  /** Something listens; nothing of observed-call.ts is loaded or built otherwise. */
  readonly observed: boolean;
  readonly #host: TelemetryHost;
  readonly #req: TracedRequest;
  readonly #baseUrl: string;
  readonly #dc: Channels | undefined;
  /** Made before the first attempt of an observed call, so no attempt goes unobserved. */
  #observer: ObservedCall | undefined;

  constructor(host: TelemetryHost, req: TracedRequest, baseUrl: string) {
    this.#host = host;
    this.#req = req;
    this.#baseUrl = baseUrl;
    const dc = channels();
    const dcActive =
      dc !== undefined &&
      (tracingActive(dc.call) ||
        dc.request.hasSubscribers ||
        dc.response.hasSubscribers ||
        dc.retry.hasSubscribers);
    this.#dc = dcActive ? dc : undefined;
    this.observed = dcActive || host.hooks.count > 0 || otelRegistered();
  }

  /**
   * Runs the call. Unobserved, it only names the request id on the error; observed, it first loads
   * what observes it (the first observed call of a process waits for that load; a failed load
   * rejects the call with ConfigurationError), which wraps the call in its span and tracing channel.
   */
  run(send: () => Promise<RawResponse>): Promise<RawResponse> {
    const sendNamed = () => send().catch((error: unknown) => this.#rethrow(error));
    if (!this.observed) return sendNamed();
    return loadObservedCall().then(({ ObservedCall }) => {
      this.#observer = new ObservedCall(this, this.#host, this.#req, this.#baseUrl, this.#dc);
      return this.#observer.run(sendNamed);
    });
  }

  /** Names the request id and attempts on the error (unless a nested call already did). */
  #rethrow(error: unknown): never {
    if (this.attempt > 0 && error !== null && typeof error === 'object') {
      const tagged = error as { clientRequestId?: string; attempts?: number };
      if (tagged.clientRequestId === undefined) tagged.clientRequestId = this.requestId;
      if (tagged.attempts === undefined) tagged.attempts = this.attempt;
    }
    throw error;
  }

  /**
   * The headers of attempt `attempt`: the call's `headers` plus the request id and attempt number,
   * and `traceparent` when the client propagates trace context. Starts the attempt's observation.
   */
  attemptHeaders(headers: Record<string, string>, attempt: number): Record<string, string> {
    this.attempt = attempt;
    const sent = {
      ...headers,
      [this.#host.requestIdHeader]: this.requestId,
      [ATTEMPT_HEADER]: String(attempt),
    };
    this.#observer?.startAttempt(sent);
    return sent;
  }

  /** The attempt started by attemptHeaders ended with `outcome`. */
  attemptEnded(outcome: AttemptOutcome): void {
    this.#observer?.attemptEnded(outcome);
  }

  /** A retry of the failed attempt after `delayMs`. */
  retrying(failure: Failure, delayMs: number): void {
    this.#observer?.retrying(failure, delayMs);
  }
}
