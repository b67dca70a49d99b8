/**
 * What the web handler and its routes see of the simulator: the port of the HTTP binding. The
 * composition root (simulator.ts) implements it; nothing here reaches the engine itself.
 */

import type { WireInput } from '../engine/bank-wires.js';
import type { AllOrdersQuery } from '../engine/dashboard-views.js';
import type { FaultSettings, Faults } from '../engine/faults.js';
import type { VenueOperations } from '../engine/venue-operations.js';
import type { Logger } from '../events/logger.js';
import type { RouteTable } from './router.js';

/** Admission of an authenticated request: who is calling, throttling and injected faults. */
export interface AdmissionPort {
  entityForApiKey(apiKey: string): { entityId: string } | undefined;
  /** Milliseconds until this key may call again; 0 when it may now. */
  throttle(apiKey: string): number;
  /** The latency and error-rate faults are applied here. */
  readonly faults: Faults;
  /** Uniform in [0, 1), seeded: the error-rate draw. */
  random(): number;
  /** True when this request's answer is to be dropped (the dropResponse fault). */
  takeDrop(): boolean;
}

/**
 * The venue operations, as the venue routes call them: one method per venue operation of the
 * endpoint table, named by its operationId and typed by its checked request and its success `data`
 * (engine/venue-operations.ts), so a new operation is a compile error here until it is served.
 */
export interface VenuePort extends VenueOperations {
  /** Throws 137010 for an ineligible entity: checked before any body is validated. */
  assertEligible(entityId: string): void;
  /**
   * The entity's account-channel seq, read right after a listing: undefined without exactly one
   * numbering socket endpoint (docs/PROTOCOL.md, resync).
   */
  accountSeq(entityId: string): number | undefined;
  /**
   * When a place's answer may leave: now (undefined), or under the `ack-after-event` preset once
   * the entity's account frames sent so far (its `order.accepted`) were written to its sockets.
   */
  ackHold(entityId: string): Promise<void> | undefined;
}

/** A platform route: answers a request the dispatch has resolved to it and admitted (auth, faults). */
export type PlatformHandler = (
  req: Request,
  ctx: { entityId: string; params: Record<string, string> },
) => Promise<Response>;

/** A simulator-only platform route under `/_sim/` (no auth, no faults). */
export type PlatformControlHandler = (req: Request) => Promise<Response>;

/**
 * The platform APIs (configuration, webhook subscriptions) and their simulator-only endpoints, as
 * route tables the dispatch resolves with its own (resolve-route.ts): the platform registers its
 * routes here, so this binding never names the platform.
 */
export interface PlatformPort {
  /** The authenticated routes by path template; a request path's trailing slashes are ignored. */
  readonly routes: RouteTable<PlatformHandler>;
  /** `/_sim/sns/*` and `/_sim/platform/*`, by exact path. */
  readonly controlRoutes: RouteTable<PlatformControlHandler>;
}

/** The `/_sim/` control operations (the same as the simulator's own methods). */
export interface ControlPort {
  clearAuction(options?: { settle?: boolean }): unknown;
  settleAuction(): unknown;
  advance(ms: number): void;
  /** advance in slices: other requests are answered while it runs. */
  advanceAsync(ms: number): Promise<void>;
  now(): number;
  setPhase(phase: 'open' | 'lock'): unknown;
  wire(input: WireInput): unknown;
  getState(): unknown;
  reset(): void;
  readonly faults: Faults;
  setFaults(faults: FaultSettings): void;
  /** A cleared auction's clearing report; undefined when the auction is unknown or has not cleared. */
  auctionReport(auctionId: number): unknown;
  /** The open auction's indicative clear. */
  currentAuctionReport(): unknown;
  /** The event log as NDJSON and the lines its ring dropped; undefined when it is off. */
  eventLog(): { ndjson: string; dropped: number } | undefined;
  /** The whole state as one versioned document. */
  snapshot(): unknown;
  /** Puts the simulator where the document was; throws a SnapshotError for one it cannot use. */
  restore(doc: unknown): void;
  /** The largest `/_sim/restore` body read (the `restoreLimitBytes` option). */
  readonly restoreLimitBytes: number;
  /** The newest orders over every entity, filtered (`GET /_sim/orders`). */
  allOrders(query: AllOrdersQuery): unknown;
  /** The last `limit` auctions that cleared, newest first (`GET /_sim/auctions`). */
  clearedAuctions(limit: number): unknown;
}

export interface SimulatorPort {
  readonly logger: Logger;
  readonly admission: AdmissionPort;
  readonly venue: VenuePort;
  readonly platform: PlatformPort;
  readonly control: ControlPort;
  /** After every request, answered or not (the real clock re-arms its timer). */
  afterRequest(): void;
}
