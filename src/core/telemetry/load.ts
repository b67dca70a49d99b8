import { lazyChunk } from '../lazy-chunk.js';

// The telemetry's code that loads on first use: what observes a call (spans, metrics, hook and
// channel payloads), the first time something listens to one (call.ts decides). The SDK's
// OpenTelemetry bridge has its own loader, beside the API's load (otel.ts). The checks of whether
// anything listens, hooks' registration and the channels' lookup stay loaded with the client.

/** observed-call.ts. */
export const loadObservedCall = lazyChunk('telemetry', () => import('./observed-call.js'));
