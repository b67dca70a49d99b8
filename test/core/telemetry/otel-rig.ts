// A real OpenTelemetry SDK registered for one test file: spans into an in-memory exporter, metrics
// into a reader collected on demand, and AsyncLocalStorage context (as NodeSDK sets up).
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface OtelRig {
  spans(): ReadableSpan[];
  /** Every data point of the metric named `name`, with its attributes. */
  metric(
    name: string,
  ): Promise<{ unit: string; points: { attributes: Record<string, unknown>; value: unknown }[] }>;
  reset(): void;
  stop(): Promise<void>;
}

export function startOtel(): OtelRig {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    async metric(name) {
      const { resourceMetrics } = await reader.collect();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const m of scope.metrics) {
          if (m.descriptor.name === name) {
            return {
              unit: m.descriptor.unit,
              points: m.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })),
            };
          }
        }
      }
      return { unit: '', points: [] };
    },
    reset: () => exporter.reset(),
    async stop() {
      trace.disable();
      metrics.disable();
      context.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** Everything a span shows an exporter: name, attributes, events and status, as one string. */
export function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
  });
}

/** The span's parent span id (sdk-trace 2.x: parentSpanContext). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
