import type { TracingChannel } from 'node:diagnostics_channel';
import type { Attributes, Span } from '@opentelemetry/api';
import type { RawResponse } from '../api-promise.js';
import type { MatchVenueError } from '../base-error.js';
import { redact, redactHeaders, redactText } from '../logger.js';
import { requestUrl } from '../request.js';
import type { Failure } from '../response.js';
import type { AttemptOutcome, CallFacts, TelemetryHost, TracedRequest } from './call-facts.js';
import { type Channels, tracingActive } from './channels.js';
import { errorType, failedOutcome, venueCodeOf } from './error-attributes.js';
import type { RequestEventBase, ResponseEvent } from './hooks.js';
import { methodName } from './method-names.js';
import { ATTR, SPAN_PREFIX } from './names.js';
import { type Otel, otelReady } from './otel.js';

// What an observed call builds (spans, metrics, event payloads), loaded the first time a call is
// observed (call.ts decides, telemetry/load.ts loads): a process where nothing listens never loads it.

/**
 * A call something observes: its span, its `match_venue:call` tracing, the events of its attempts.
 * Made by CallTrace (call.ts), which holds the request id and the attempt number, once this module
 * has loaded; nothing of it runs for a call nobody observes.
 */
export class ObservedCall {
  /** The call's request id and the attempt under way, kept by the CallTrace. */
  readonly #trace: CallFacts;
  readonly #host: TelemetryHost;
  readonly #req: TracedRequest;
  readonly #baseUrl: string;
  #url: string | undefined;
  readonly #dc: Channels | undefined;
  /** OpenTelemetry's API and the SDK's bridge, when a provider is registered. */
  #otel: Otel | undefined;
  #span: Span | undefined;
  #attemptSpan: Span | undefined;
  #attemptStarted = 0;
  #base: RequestEventBase | undefined;
  #serverRequestId: string | undefined;

  constructor(
    trace: CallFacts,
    host: TelemetryHost,
    req: TracedRequest,
    baseUrl: string,
    dc: Channels | undefined,
  ) {
    this.#trace = trace;
    this.#host = host;
    this.#req = req;
    this.#baseUrl = baseUrl;
    this.#dc = dc;
  }

  /**
   * Runs the call (`send` names the request id on its error) inside the call span and the
   * `match_venue:call` tracing channel, whichever listens.
   */
  async run(send: () => Promise<RawResponse>): Promise<RawResponse> {
    // Only the first call of a process waits here, for the API's load.
    const loaded = await otelReady();
    this.#otel = loaded;
    let run = send;
    if (loaded !== undefined) {
      const { api: otel, bridge } = loaded;
      const req = this.#req;
      const span = bridge
        .tracerOf(otel)
        .startSpan(
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

  #callAttributes(): Attributes {
    const req = this.#req;
    const attributes: Attributes = {
      [ATTR.clientRequestId]: this.#trace.requestId,
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
    context.attempts = this.#trace.attempt;
  }

  #endCall(error: unknown): void {
    const span = this.#span;
    const loaded = this.#otel;
    if (span === undefined || loaded === undefined) return;
    span.setAttribute(ATTR.attempts, this.#trace.attempt);
    if (this.#serverRequestId !== undefined) span.setAttribute(ATTR.requestId, this.#serverRequestId);
    if (error === undefined) span.setAttribute(ATTR.outcome, 'success');
    else {
      const failure = error as Partial<MatchVenueError> & { status?: number };
      span.setAttribute(ATTR.outcome, failedOutcome(error));
      const code = venueCodeOf(error);
      if (code !== undefined) span.setAttribute(ATTR.errorCode, code);
      const message = redactText(failure.message ?? String(error), this.#host.secrets());
      loaded.bridge.failSpan(loaded.api, span, failure.kind ?? 'Error', message);
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
      requestId: this.#trace.requestId,
      attempt: 0,
      name: methodName(req.operation, req.method, req.path),
      operation: req.operation,
      method: req.method,
      url: this.#redactedUrl(),
      idempotencyKey: req.idempotencyKey,
    };
    return { ...this.#base, attempt: this.#trace.attempt };
  }

  /** Attempt `headers` (the request id and attempt number already in) is about to be sent. */
  startAttempt(headers: Record<string, string>): void {
    this.#attemptStarted = performance.now();
    const loaded = this.#otel;
    const host = this.#host;
    if (loaded !== undefined && this.#span !== undefined) {
      const otel = loaded.api;
      const req = this.#req;
      const attributes: Attributes = {
        'http.request.method': req.method,
        'server.address': host.serverAddress,
        'server.port': host.serverPort,
        'url.full': this.#redactedUrl(),
        'url.template': req.template ?? req.path,
        [ATTR.clientRequestId]: this.#trace.requestId,
      };
      if (this.#trace.attempt > 1) attributes['http.request.resend_count'] = this.#trace.attempt - 1;
      if (req.idempotencyKey !== undefined) attributes[ATTR.idempotencyKey] = req.idempotencyKey;
      const parent = otel.trace.setSpan(otel.context.active(), this.#span);
      this.#attemptSpan = loaded.bridge
        .tracerOf(otel)
        .startSpan(
          `${req.method} ${req.template ?? req.path}`,
          { kind: otel.SpanKind.CLIENT, attributes },
          parent,
        );
    }
    if (loaded !== undefined && host.propagateTraceContext) {
      const otel = loaded.api;
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
    const loaded = this.#otel;
    if (loaded === undefined) return;
    const { api: otel, bridge } = loaded;
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
    bridge.instrumentsOf(otel).requestDuration.record(ms / 1000, metric);
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
      bridge.failSpan(otel, span, type ?? 'Error', redactText(failure.error.message, this.#host.secrets()));
    }
    span.end();
  }

  /** A retry of the failed attempt after `delayMs`. */
  retrying(failure: Failure, delayMs: number): void {
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
      nextAttempt: this.#trace.attempt + 1,
      delayMs,
      reason: { status, kind: failure.error.kind },
    };
    if (toChannel) this.#dc?.retry.publish(event);
    hooks.emit('retry', event);
  }
}

/**
 * Runs `run` as a traced call on `tc` with `context` as its payload, as `tracePromise` does (start,
 * end, then asyncStart and asyncEnd when the promise settles, error before them on a rejection),
 * except that `done` fills in the result the payload carries: a redacted summary, never the raw
 * response (its body can hold a ticket).
 */
export function traceCall<C extends object, T>(
  tc: TracingChannel<object, object>,
  context: C,
  run: () => Promise<T>,
  done: (context: C, result: T) => void,
): Promise<T> {
  return tc.start.runStores(context, () => {
    let promise: Promise<T>;
    try {
      promise = run();
    } catch (error) {
      (context as { error?: unknown }).error = error;
      tc.error.publish(context);
      throw error;
    } finally {
      tc.end.publish(context);
    }
    return promise.then(
      (result) => {
        done(context, result);
        tc.asyncStart.publish(context);
        tc.asyncEnd.publish(context);
        return result;
      },
      (error: unknown) => {
        (context as { error?: unknown }).error = error;
        tc.error.publish(context);
        tc.asyncStart.publish(context);
        tc.asyncEnd.publish(context);
        throw error;
      },
    );
  });
}
