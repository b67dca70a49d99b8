import type {
  Attributes,
  Context,
  Counter,
  Histogram,
  Meter,
  MeterProvider,
  ObservableGauge,
  Span,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import { VERSION } from '../../generated/version.js';
import { redactText } from '../logger.js';
import { depthSources } from './depth.js';
import { ATTR, INSTRUMENTATION_SCOPE, METRICS, SPAN_PREFIX } from './names.js';

// The SDK's side of OpenTelemetry: its tracer, its instruments, how it ends a failed span and runs
// work inside one. Loaded with the API itself, once a provider is registered (otel.ts), never in a
// process without one.

/** `@opentelemetry/api`, as loaded. */
export type OtelApi = typeof import('@opentelemetry/api');

// A tracer and the instruments belong to the provider registered when they were made: after a
// provider is replaced (tests, a late SDK start) they are made again.
let tracing: { provider: TracerProvider; tracer: Tracer } | undefined;

/** The SDK's tracer from the registered provider. */
export function tracerOf(otel: OtelApi): Tracer {
  const provider = otel.trace.getTracerProvider();
  if (tracing?.provider !== provider) {
    tracing = { provider, tracer: provider.getTracer(INSTRUMENTATION_SCOPE, VERSION) };
  }
  return tracing.tracer;
}

/** The SDK's instruments. */
export interface Instruments {
  requestDuration: Histogram;
  connects: Counter;
  reconnects: Counter;
  resyncs: Counter;
  gaps: Counter;
  replayFallbacks: Counter;
  eventLag: Histogram;
  bufferDepth: ObservableGauge;
}

let metering: { provider: MeterProvider; instruments: Instruments } | undefined;

function makeInstruments(meter: Meter): Instruments {
  // Descriptions are left to docs/OBSERVABILITY.md: every byte here is in each bot's bundle (in
  // a chunk loaded on first use).
  const bufferDepth = meter.createObservableGauge(METRICS.streamBufferDepth, { unit: '{event}' });
  bufferDepth.addCallback((result) => {
    for (const source of depthSources()) {
      for (const [channel, depth] of source())
        result.observe(depth, { 'match_venue.stream.channel': channel });
    }
  });
  const counter = (name: string) => meter.createCounter(name, { unit: '{event}' });
  return {
    requestDuration: meter.createHistogram(METRICS.requestDuration, {
      unit: 's',
      // The semantic conventions' recommended boundaries for this instrument.
      advice: {
        explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
      },
    }),
    connects: counter(METRICS.streamConnects),
    reconnects: counter(METRICS.streamReconnects),
    resyncs: counter(METRICS.streamResyncs),
    gaps: counter(METRICS.streamGaps),
    replayFallbacks: counter(METRICS.streamReplayFallbacks),
    eventLag: meter.createHistogram(METRICS.streamEventLag, { unit: 's' }),
    bufferDepth,
  };
}

/** The instruments of the registered meter provider (a no-op meter's when none is). */
export function instrumentsOf(otel: OtelApi): Instruments {
  const provider = otel.metrics.getMeterProvider();
  if (metering?.provider !== provider) {
    metering = { provider, instruments: makeInstruments(provider.getMeter(INSTRUMENTATION_SCOPE, VERSION)) };
  }
  return metering.instruments;
}

/** Ends `span` as failed, with an exception event that holds the error's kind and redacted message. */
export function failSpan(otel: OtelApi, span: Span, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.addEvent('exception', { 'exception.type': type, 'exception.message': message });
  span.setStatus({ code: otel.SpanStatusCode.ERROR, message });
}

/**
 * Runs `run` inside a span named `match_venue <name>` (internal kind), active for the async work
 * it starts, so REST calls made on its behalf become its children (otel.ts's inSpan, once the API
 * is loaded). `finish` adds attributes of the result; a rejection ends the span failed, with the
 * error's kind and redacted message.
 */
export function spanned<T>(
  otel: OtelApi,
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  finish?: (span: Span, result: T) => void,
): Promise<T> {
  const span = tracerOf(otel).startSpan(`${SPAN_PREFIX} ${name}`, { attributes }, otel.context.active());
  if (!span.isRecording()) return run();
  const ctx: Context = otel.trace.setSpan(otel.context.active(), span);
  return otel.context.with(ctx, run).then(
    (result) => {
      span.setAttribute(ATTR.outcome, 'success');
      finish?.(span, result);
      span.end();
      return result;
    },
    (error: unknown) => {
      const e = error as { kind?: unknown; name?: unknown; message?: unknown } | null;
      const type = typeof e?.kind === 'string' ? e.kind : typeof e?.name === 'string' ? e.name : 'Error';
      span.setAttribute(ATTR.outcome, type === 'MV_ABORTED' ? 'aborted' : 'error');
      failSpan(otel, span, type, redactText(typeof e?.message === 'string' ? e.message : String(error)));
      span.end();
      throw error;
    },
  );
}
