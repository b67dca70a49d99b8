import { lazyTransport } from './default-transport.js';
import { lazyChunk } from './lazy-chunk.js';
import type { Recorder } from './recorder.js';
import type { Transport } from './transport.js';

// The recording's code that loads on first use (docs/CASSETTES.md, What it costs): the transport of
// a recording client (record-transport.ts, with the redaction of its lines), loaded before its first
// attempt. The stream's socket has its own loader (stream/load.ts). What refuses a bad cassette file
// at construction (recorder.ts, cassette-file.ts) stays loaded with the client.

/** record-transport.ts. */
export const loadRecordTransport = lazyChunk('recording', () => import('./record-transport.js'));

const recording = new WeakSet<Transport>();

/** Whether `transport` is a recording one (for the SDK's tests: a client not recording has none). */
export function isRecordingTransport(transport: Transport): boolean {
  return recording.has(transport);
}

/**
 * `transport` with every attempt written to `recorder`, the recording transport loaded by the first
 * attempt, which waits for it (a load that fails rejects the call with ConfigurationError, and the
 * next call tries again).
 */
export function recordingOnFirstUse(transport: Transport, recorder: Recorder, baseUrl: string): Transport {
  const wrapped = lazyTransport(() =>
    loadRecordTransport().then((chunk) => chunk.recordingTransport(transport, recorder, baseUrl)),
  );
  recording.add(wrapped);
  return wrapped;
}
