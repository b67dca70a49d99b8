import type { Logger } from '../logger.js';
import { CallTrace, type TelemetryHost, type TracedRequest } from './call.js';
import { Hooks } from './hooks.js';
import { loadOtel, otelRegistered } from './otel.js';

// The telemetry of one client: its hooks, how it names requests, where it sends them. Each call
// gets a CallTrace (call.ts); the sinks are hooks.ts, channels.ts and otel.ts.

export { CallTrace, type TracedRequest } from './call.js';
export type {
  AttemptError,
  ClientEvents,
  ListenerOptions,
  RequestEvent,
  RequestEventBase,
  ResponseEvent,
  RetryEvent,
  RetryReason,
} from './hooks.js';
export { inSpan } from './otel.js';

/** What a client's telemetry is made from. */
export interface TelemetryOptions {
  baseUrl: string;
  /** Header of the client request id (the client's `requestIdHeader`, resolved). */
  requestIdHeader: string;
  /** Send `traceparent` (and `tracestate`) on every attempt. */
  propagateTraceContext: boolean;
  /** Exact strings to redact (the API key). */
  secrets: () => readonly string[];
  logger: () => Logger;
}

export class ClientTelemetry implements TelemetryHost {
  readonly hooks: Hooks;
  readonly requestIdHeader: string;
  readonly propagateTraceContext: boolean;
  readonly serverAddress: string;
  readonly serverPort: number;
  readonly #secrets: () => readonly string[];

  constructor(options: TelemetryOptions) {
    this.hooks = new Hooks(options.logger);
    this.requestIdHeader = options.requestIdHeader.toLowerCase();
    this.propagateTraceContext = options.propagateTraceContext;
    this.#secrets = options.secrets;
    let address = '';
    let port = 0;
    try {
      const url = new URL(options.baseUrl);
      address = url.hostname.replace(/^\[|\]$/g, '');
      port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    } catch {
      // An unparsable base URL fails every request on its own; the attributes stay empty.
    }
    this.serverAddress = address;
    this.serverPort = port;
    // Loaded ahead of the first call when a provider is already registered, so that spans started
    // synchronously (a wait, a resync) do not miss it.
    if (otelRegistered()) void loadOtel();
  }

  secrets(): readonly string[] {
    return this.#secrets();
  }

  /** Starts observing one call to `baseUrl`. */
  begin(req: TracedRequest, baseUrl: string): CallTrace {
    return new CallTrace(this, req, baseUrl);
  }
}
