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
import { runtimeImport } from '../runtime-import.js';
import { ATTR, INSTRUMENTATION_SCOPE, METRICS, SPAN_PREFIX } from './names.js';

// OpenTelemetry, optional. `@opentelemetry/api` is an optional peer: it is loaded (once per
// process, through runtimeImport so no bundler pulls it in) only after something registered a
// tracer or meter provider. Whether one is registered is read from the API's own global slot,
// which every copy of the 1.x API shares, so with nothing registered a call costs one property read
// and the package is never loaded at all, installed or not.

export type OtelApi = typeof import('@opentelemetry/api');

// Where @opentelemetry/api 1.x keeps its registered providers (its `registerGlobal`).
const GLOBAL_SLOT = Symbol.for('opentelemetry.js.api.1');

interface GlobalSlot {
  trace?: unknown;
  metrics?: unknown;
}

/** True while a tracer or meter provider is registered in this process. */
export function otelRegistered(): boolean {
  const slot = (globalThis as { [GLOBAL_SLOT]?: GlobalSlot })[GLOBAL_SLOT];
  return slot !== undefined && (slot.trace !== undefined || slot.metrics !== undefined);
}

let api: OtelApi | null | undefined;
let loading: Promise<OtelApi | undefined> | undefined;

/** The API, loaded once; undefined when it cannot be (not installed, a bundle without it). */
export function loadOtel(): Promise<OtelApi | undefined> {
  loading ??= runtimeImport<OtelApi & { default?: OtelApi }>('@opentelemetry/api').then(
    // From CommonJS interop the namespace's default holds the exports.
    (mod) => {
      api = mod.trace === undefined && mod.default !== undefined ? mod.default : mod;
      return api;
    },
    () => {
      api = null;
      return undefined;
    },
  );
  return loading;
}

/**
 * The API when a provider is registered and the API is loaded; otherwise undefined, and the load
 * is started for later calls. For synchronous paths (stream state, waits) that cannot await it.
 */
export function otelNow(): OtelApi | undefined {
  if (!otelRegistered()) return undefined;
  if (api === undefined) void loadOtel();
  return api ?? undefined;
}

/** Like otelNow, waiting for the first load instead: for the request pipeline, which is async anyway. */
export function otelReady(): OtelApi | undefined | Promise<OtelApi | undefined> {
  if (!otelRegistered()) return undefined;
  if (api === undefined) return loadOtel();
  return api ?? undefined;
}

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

/** What the buffer-depth gauge reads: each open stream's events waiting, by channel. */
export type DepthSource = () => Iterable<[channel: string, depth: number]>;
const depthSources = new Set<DepthSource>();

/** Adds an open stream to the buffer-depth gauge; returns its removal. */
export function watchDepth(source: DepthSource): () => void {
  depthSources.add(source);
  return () => depthSources.delete(source);
}

let metering: { provider: MeterProvider; instruments: Instruments } | undefined;

function makeInstruments(meter: Meter): Instruments {
  // Descriptions are left to docs/OBSERVABILITY.md: every byte here is in each bot's bundle.
  const bufferDepth = meter.createObservableGauge(METRICS.streamBufferDepth, { unit: '{event}' });
  bufferDepth.addCallback((result) => {
    for (const source of depthSources) {
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
 * it starts, so REST calls made on its behalf become its children. With OpenTelemetry absent, just
 * `run()`. `finish` adds attributes of the result; a rejection ends the span failed, with the
 * error's kind and redacted message.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  finish?: (span: Span, result: T) => void,
): Promise<T> {
  const otel = otelNow();
  if (otel === undefined) return run();
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
