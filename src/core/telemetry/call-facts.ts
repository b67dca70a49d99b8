import type { OperationId } from '../../generated/endpoints.js';
import type { RawResponse } from '../api-promise.js';
import type { QueryValue } from '../request.js';
import type { Failure } from '../response.js';
import type { Hooks } from './hooks.js';

// What a call's telemetry reads, shared by the part loaded with the client (call.ts) and the part
// loaded when a call is observed (observed-call.ts).

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

/** How an attempt ended: a response (any status), or the failure that stands for one. */
export type AttemptOutcome = { raw: RawResponse } | Failure;

/** What an observed call reads of its trace. */
export interface CallFacts {
  /** The client request id, the same on every attempt. */
  readonly requestId: string;
  /** The attempt under way (1 for the first); 0 before any. */
  readonly attempt: number;
}
