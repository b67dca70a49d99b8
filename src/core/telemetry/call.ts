import type { Attributes, Span } from '@opentelemetry/api';
import type { OperationId } from '../../generated/endpoints.js';
import type { RawResponse } from '../api-promise.js';
import type { MatchVenueError } from '../base-error.js';
import { errorType, failedOutcome, venueCodeOf } from './error-attributes.js';
import { redact, redactHeaders, redactText } from '../logger.js';
import { type QueryValue, requestUrl } from '../request.js';
import type { Failure } from '../response.js';
import { type Channels, channels, traceCall, tracingActive } from './channels.js';
import type { Hooks, RequestEventBase, ResponseEvent } from './hooks.js';
import { ATTEMPT_HEADER, ATTR, methodName, SPAN_PREFIX } from './names.js';
import { failSpan, instrumentsOf, type OtelApi, otelReady, otelRegistered, tracerOf } from './otel.js';

// One SDK call as the telemetry sees it. Always: a client request id, sent with the attempt number
// on every attempt, and put on the error the call fails with. Only while something listens (a
// hook, a diagnostics_channel subscriber, a registered OpenTelemetry provider): spans, metrics and
// event payloads. The check is made once per call, so a call nobody observes builds none of it.

/** The request facts the telemetry reads (a FinalRequest). */
export interface TracedRequest {
  method: string;
  path: string;
  /** The path template of the endpoint table (`/v1/match/orders/{id}`): `url.template`. */
  template?: string | undefined;
  operation?: OperationId | undefined;
  idempotencyKey?: string | undefined;
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
}

/** What a client's calls share: its options, its hooks, and where it sends. */
export interface TelemetryHost {
  readonly hooks: Hooks;
  readonly requestIdHeader: string;
  readonly propagateTraceContext: boolean;
  readonly serverAddress: string;
  readonly serverPort: number;
  secrets(): readonly string[];
}

type AttemptOutcome = { raw: RawResponse } | Failure;

export class CallTrace {
  /** The client request id, the same on every attempt. */
  readonly requestId: string = globalThis.crypto.randomUUID();
  /** Attempts sent so far. */
  attempt = 0;
  /** Something listens; nothing below this is built otherwise. */
  readonly observed: boolean;
  readonly #host: TelemetryHost;
  readonly #req: TracedRequest;
  readonly #baseUrl: string;
  #url: string | undefined;
  readonly #dc: Channels | undefined;
  #otel: OtelApi | undefined;
  #span: Span | undefined;
  #attemptSpan: Span | undefined;
  #attemptStarted = 0;
  #base: RequestEventBase | undefined;
  #serverRequestId: string | undefined;

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
   * Runs the call. Unobserved, it only names the request id on the error; observed, the call span
   * and the `match_venue:call` tracing channel wrap it.
   */
  run(send: () => Promise<RawResponse>): Promise<RawResponse> {
    if (!this.observed) return send().catch((error: unknown) => this.#rethrow(error));
    return this.#runObserved(send);
  }

  async #runObserved(send: () => Promise<RawResponse>): Promise<RawResponse> {
    // Only the first call of a process waits here, for the API's load.
    const otel = await otelReady();
    this.#otel = otel;
    let run = () => send().catch((error: unknown) => this.#rethrow(error));
    if (otel !== undefined) {
      const req = this.#req;
      const span = tracerOf(otel).startSpan(
        `${SPAN_PREFIX} ${methodName(req.operation, req.method, req.template ?? req.path)}`,
        { kind: otel.SpanKind.INTERNAL, attributes: this.#callAttributes() },
        otel.context.active(),
      );
      if (span.isRecording()) {
        this.#span = span;
        const ctx = otel.trace.setSpan(otel.context.active(), span);
        const inner = run;
        run = () => otel.context.with(ctx, inner);
      }
    }
    const tc = this.#dc && tracingActive(this.#dc.call) ? this.#dc.call : undefined;
    try {
      const raw = await (tc
        ? traceCall(tc, this.#callContext(), run, (c, r) => this.#callResult(c, r))
        : run());
      this.#endCall(undefined);
      return raw;
    } catch (error) {
      this.#endCall(error);
      throw error;
    }
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

  #callAttributes(): Attributes {
    const req = this.#req;
    const attributes: Attributes = {
      [ATTR.clientRequestId]: this.requestId,
      'http.request.method': req.method,
      'url.template': req.template ?? req.path,
    };
    if (req.operation !== undefined) attributes[ATTR.operation] = req.operation;
    if (req.idempotencyKey !== undefined) attributes[ATTR.idempotencyKey] = req.idempotencyKey;
    return attributes;
  }

  /** The `match_venue:call` payload: the call's facts, then `result` or `error`, and `attempts`. */
  #callContext(): Record<string, unknown> {
    const { requestId, name, operation, method, url, idempotencyKey } = this.#event();
    return { requestId, name, operation, method, url, idempotencyKey };
  }

  #callResult(context: Record<string, unknown>, raw: RawResponse): void {
    context.result = { status: raw.status, serverRequestId: raw.requestId };
    context.attempts = this.attempt;
  }

  #endCall(error: unknown): void {
    const span = this.#span;
    if (span === undefined || this.#otel === undefined) return;
    span.setAttribute(ATTR.attempts, this.attempt);
    if (this.#serverRequestId !== undefined) span.setAttribute(ATTR.requestId, this.#serverRequestId);
    if (error === undefined) span.setAttribute(ATTR.outcome, 'success');
    else {
      const failure = error as Partial<MatchVenueError> & { status?: number };
      span.setAttribute(ATTR.outcome, failedOutcome(error));
      const code = venueCodeOf(error);
      if (code !== undefined) span.setAttribute(ATTR.errorCode, code);
      const message = redactText(failure.message ?? String(error), this.#host.secrets());
      failSpan(this.#otel, span, failure.kind ?? 'Error', message);
    }
    span.end();
  }

  /** `url.full`: built again here (the pipeline's own is not kept), only for an observed call. */
  #redactedUrl(): string {
    this.#url ??= redactText(
      requestUrl(this.#baseUrl, this.#req.path, this.#req.query),
      this.#host.secrets(),
    );
    return this.#url;
  }

  /** The event fields every payload of this call shares, made once. */
  #event(): RequestEventBase {
    const req = this.#req;
    this.#base ??= {
      requestId: this.requestId,
      attempt: 0,
      name: methodName(req.operation, req.method, req.path),
      operation: req.operation,
      method: req.method,
      url: this.#redactedUrl(),
      idempotencyKey: req.idempotencyKey,
    };
    return { ...this.#base, attempt: this.attempt };
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
    if (this.observed) this.#startAttempt(sent);
    return sent;
  }

  #startAttempt(headers: Record<string, string>): void {
    this.#attemptStarted = performance.now();
    const otel = this.#otel;
    const host = this.#host;
    if (otel !== undefined && this.#span !== undefined) {
      const req = this.#req;
      const attributes: Attributes = {
        'http.request.method': req.method,
        'server.address': host.serverAddress,
        'server.port': host.serverPort,
        'url.full': this.#redactedUrl(),
        'url.template': req.template ?? req.path,
        [ATTR.clientRequestId]: this.requestId,
      };
      if (this.attempt > 1) attributes['http.request.resend_count'] = this.attempt - 1;
      if (req.idempotencyKey !== undefined) attributes[ATTR.idempotencyKey] = req.idempotencyKey;
      const parent = otel.trace.setSpan(otel.context.active(), this.#span);
      this.#attemptSpan = tracerOf(otel).startSpan(
        `${req.method} ${req.template ?? req.path}`,
        { kind: otel.SpanKind.CLIENT, attributes },
        parent,
      );
    }
    if (otel !== undefined && host.propagateTraceContext) {
      const context = (this.#attemptSpan ?? otel.trace.getSpan(otel.context.active()))?.spanContext();
      if (context !== undefined && otel.isSpanContextValid(context)) {
        const sampled = (context.traceFlags & otel.TraceFlags.SAMPLED) === 1 ? '01' : '00';
        headers.traceparent = `00-${context.traceId}-${context.spanId}-${sampled}`;
        const state = context.traceState?.serialize();
        if (state) headers.tracestate = state;
      }
    }
    const hooks = host.hooks;
    const toChannel = this.#dc?.request.hasSubscribers === true;
    if (!hooks.has('request') && !toChannel) return;
    const event = { ...this.#event(), headers: redactHeaders(headers, host.secrets()) };
    if (toChannel) this.#dc?.request.publish(event);
    if (hooks.has('request')) {
      const withBody = hooks.wantsBody('request')
        ? { ...event, body: redact(this.#req.body, host.secrets()) }
        : undefined;
      hooks.emit('request', event, withBody);
    }
  }

  /** The attempt started by attemptHeaders ended with `outcome`. */
  attemptEnded(outcome: AttemptOutcome): void {
    if (!this.observed) return;
    const ms = performance.now() - this.#attemptStarted;
    const host = this.#host;
    const raw = 'raw' in outcome ? outcome.raw : undefined;
    const error = 'raw' in outcome ? undefined : outcome.error;
    const apiError = error as (MatchVenueError & { status?: number; requestId?: string }) | undefined;
    const status = raw?.status ?? apiError?.status;
    const serverRequestId = raw?.requestId ?? apiError?.requestId;
    if (serverRequestId !== undefined) this.#serverRequestId = serverRequestId;
    this.#endAttemptSpan(outcome, status, serverRequestId, ms);
    const hooks = host.hooks;
    const toChannel = this.#dc?.response.hasSubscribers === true;
    if (!hooks.has('response') && !toChannel) return;
    const event: ResponseEvent = { ...this.#event(), status, serverRequestId, durationMs: ms };
    if (error !== undefined) {
      event.error = {
        kind: error.kind,
        venueCode: venueCodeOf(error),
        message: redactText(error.message, host.secrets()),
      };
      event.ambiguous = (outcome as Failure).ambiguous;
    }
    if (toChannel) this.#dc?.response.publish(event);
    if (hooks.has('response')) {
      const text = raw?.bodyText ?? (apiError as { body?: unknown } | undefined)?.body;
      const withBody = hooks.wantsBody('response')
        ? {
            ...event,
            body: typeof text === 'string' ? redactText(text, host.secrets()) : JSON.stringify(text),
          }
        : undefined;
      hooks.emit('response', event, withBody);
    }
  }

  #endAttemptSpan(
    outcome: AttemptOutcome,
    status: number | undefined,
    serverRequestId: string | undefined,
    ms: number,
  ): void {
    const otel = this.#otel;
    if (otel === undefined) return;
    const failure = 'raw' in outcome ? undefined : outcome;
    const type = failure === undefined ? undefined : errorType(failure.error, status);
    const req = this.#req;
    const metric: Attributes = {
      'http.request.method': req.method,
      'server.address': this.#host.serverAddress,
      'server.port': this.#host.serverPort,
      'url.template': req.template ?? req.path,
    };
    if (status !== undefined) metric['http.response.status_code'] = status;
    if (type !== undefined) metric['error.type'] = type;
    instrumentsOf(otel).requestDuration.record(ms / 1000, metric);
    const span = this.#attemptSpan;
    this.#attemptSpan = undefined;
    if (span === undefined) return;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (serverRequestId !== undefined) span.setAttribute(ATTR.requestId, serverRequestId);
    if (failure === undefined) span.setAttribute(ATTR.outcome, 'success');
    else {
      const code = venueCodeOf(failure.error);
      if (code !== undefined) span.setAttribute(ATTR.errorCode, code);
      span.setAttribute(ATTR.ambiguous, failure.ambiguous);
      // An attempt that may have reached the venue without an answer: its effect is unknown.
      span.setAttribute(ATTR.outcome, failure.ambiguous && status === undefined ? 'unknown' : 'error');
      failSpan(otel, span, type ?? 'Error', redactText(failure.error.message, this.#host.secrets()));
    }
    span.end();
  }

  /** A retry of the failed attempt after `delayMs`. */
  retrying(failure: Failure, delayMs: number): void {
    if (!this.observed) return;
    const status = (failure.error as { status?: number }).status;
    this.#span?.addEvent('retry', {
      'match_venue.retry.delay_ms': delayMs,
      'error.type': failure.error.kind,
    });
    const hooks = this.#host.hooks;
    const toChannel = this.#dc?.retry.hasSubscribers === true;
    if (!hooks.has('retry') && !toChannel) return;
    const event = {
      ...this.#event(),
      nextAttempt: this.attempt + 1,
      delayMs,
      reason: { status, kind: failure.error.kind },
    };
    if (toChannel) this.#dc?.retry.publish(event);
    hooks.emit('retry', event);
  }
}
