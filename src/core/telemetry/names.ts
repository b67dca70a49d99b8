// Every name the SDK's telemetry publishes, in one place: they are public API (docs/OBSERVABILITY.md),
// and a dashboard or an APM subscription breaks when one changes. The SDK method each operation is
// called through (a call span's name) is in method-names.ts, loaded with what observes a call.

/** Prefix of every span the SDK starts, and the instrumentation scope's name. */
export const SPAN_PREFIX = 'match_venue';
export const INSTRUMENTATION_SCOPE = 'match-venue';

/** Header carrying the attempt number (1 for the first), sent with the request id. */
export const ATTEMPT_HEADER = 'x-client-attempt';

/** The SDK's own span attributes (the HTTP ones follow the OpenTelemetry semantic conventions). */
export const ATTR = {
  requestId: 'match_venue.request_id',
  clientRequestId: 'match_venue.client_request_id',
  errorCode: 'match_venue.error_code',
  idempotencyKey: 'match_venue.idempotency_key',
  outcome: 'match_venue.outcome',
  operation: 'match_venue.operation',
  attempts: 'match_venue.attempts',
  ambiguous: 'match_venue.ambiguous',
} as const;

/** diagnostics_channel names (docs/OBSERVABILITY.md lists each payload). */
export const CHANNELS = {
  /** TracingChannel: start, end, asyncStart, asyncEnd, error of every SDK call. */
  call: 'match_venue:call',
  /** Each HTTP attempt as it is sent. */
  request: 'match_venue:request',
  /** Each HTTP attempt as it ends (a response, or the failure that stands for one). */
  response: 'match_venue:response',
  /** A retry decided, with its delay. */
  retry: 'match_venue:retry',
  /** A stream's state changes (connecting, open, reconnecting, closed). */
  streamState: 'match_venue:stream:state',
  /** A stream channel that could not resume exactly (gap, replay unavailable, undecodable). */
  streamResync: 'match_venue:stream:resync',
} as const;

/** Metric instrument names. */
export const METRICS = {
  requestDuration: 'http.client.request.duration',
  streamConnects: 'match_venue.stream.connects',
  streamReconnects: 'match_venue.stream.reconnects',
  streamResyncs: 'match_venue.stream.resyncs',
  streamGaps: 'match_venue.stream.sequence_gaps',
  streamReplayFallbacks: 'match_venue.stream.replay_fallbacks',
  streamBufferDepth: 'match_venue.stream.buffer.depth',
  streamEventLag: 'match_venue.stream.event.lag',
} as const;
