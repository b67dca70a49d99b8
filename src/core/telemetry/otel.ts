import type { Attributes, Span } from '@opentelemetry/api';
import { lazyChunk } from '../lazy-chunk.js';
import { runtimeImport } from '../runtime-import.js';
import type { OtelApi } from './otel-bridge.js';

// OpenTelemetry, optional. `@opentelemetry/api` is an optional peer: it is loaded (once per
// process, through runtimeImport so no bundler pulls it in) only after something registered a
// tracer or meter provider. Whether one is registered is read from the API's own global slot,
// which every copy of the 1.x API shares, so with nothing registered a call costs one property read
// and the package is never loaded at all, installed or not. The SDK's side of it (its tracer,
// instruments and spans: otel-bridge.ts) is loaded with the API, through a lazy chunk.

export type { OtelApi } from './otel-bridge.js';

/** The API and the SDK's bridge to it, loaded together. */
export interface Otel {
  api: OtelApi;
  bridge: typeof import('./otel-bridge.js');
}

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

/** otel-bridge.ts: loaded with the API, never in a process without a provider. */
const loadOtelBridge = lazyChunk('OpenTelemetry bridge', () => import('./otel-bridge.js'));

let loaded: Otel | null | undefined;
let loading: Promise<Otel | undefined> | undefined;

/**
 * The API and the bridge, loaded once; undefined when either cannot be (the API not installed, a
 * bundle without it or without the bridge's chunk): OpenTelemetry is then off, as without the API.
 */
export function loadOtel(): Promise<Otel | undefined> {
  loading ??= Promise.all([
    runtimeImport<OtelApi & { default?: OtelApi }>('@opentelemetry/api'),
    loadOtelBridge(),
  ]).then(
    // From CommonJS interop the namespace's default holds the exports.
    ([mod, bridge]) => {
      const api = mod.trace === undefined && mod.default !== undefined ? mod.default : mod;
      loaded = { api, bridge };
      return loaded;
    },
    () => {
      loaded = null;
      return undefined;
    },
  );
  return loading;
}

/**
 * The API when a provider is registered and the API is loaded; otherwise undefined, and the load
 * is started for later calls. For synchronous paths (stream state, waits) that cannot await it.
 */
export function otelNow(): Otel | undefined {
  if (!otelRegistered()) return undefined;
  if (loaded === undefined) void loadOtel();
  return loaded ?? undefined;
}

/** Like otelNow, waiting for the first load instead: for the request pipeline, which is async anyway. */
export function otelReady(): Otel | undefined | Promise<Otel | undefined> {
  if (!otelRegistered()) return undefined;
  if (loaded === undefined) return loadOtel();
  return loaded ?? undefined;
}

/**
 * Runs `run` inside a span named `match_venue <name>` (internal kind), active for the async work
 * it starts, so REST calls made on its behalf become its children. With OpenTelemetry absent (or
 * not loaded yet), just `run()`. `finish` adds attributes of the result; a rejection ends the span
 * failed, with the error's kind and redacted message.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  finish?: (span: Span, result: T) => void,
): Promise<T> {
  const otel = otelNow();
  if (otel === undefined) return run();
  return otel.bridge.spanned(otel.api, name, attributes, run, finish);
}
