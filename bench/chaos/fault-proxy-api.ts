/** What the chaos fault proxy (fault-proxy.ts) is given, what it counts, and what it hands back. */
import type { FaultKind, FaultRates } from './fault-kinds.js';

export interface FaultProxyOptions {
  /** The simulator's base URL, e.g. `http://127.0.0.1:4010` (loopback only). */
  upstream: string;
  /** Where WebSocket upgrades go (default `upstream`). */
  wsUpstream?: string;
  seed?: number;
  /** Per-attempt probabilities (missing ones default to DEFAULT_FAULTS; pass 0 to disable). */
  faults?: Partial<FaultRates>;
  /** Hold time of `delayRequest` and `delayAnswer`, uniform in [min, max] ms. Default [400, 1200]. */
  delayMs?: readonly [number, number];
  /** `METHOD /path` of the requests that may be hurt; every other request passes untouched. */
  routes?: readonly string[];
}

export interface FaultProxyStats {
  requests: number;
  /** Requests of the hurt routes, by what the proxy did to them. */
  faults: Record<FaultKind, number>;
  forwarded: number;
  /** Upstream failures (the proxy answered 502); expected 0. */
  upstreamErrors: number;
  /**
   * Held requests that the simulator accepted (2xx) after another attempt with the same key had
   * been refused (4xx): the race of issue 9 happened, whatever the client then reported.
   */
  landedAfterRefusal: number;
  wsConnections: number;
  wsKilled: number;
}

export interface FaultProxy {
  /** `http://127.0.0.1:<port>`: give it to the client as `baseUrl`. */
  readonly url: string;
  /** `ws://127.0.0.1:<port>`: give it to the client as `wsUrl`. */
  readonly wsUrl: string;
  /** Fault probabilities from now on. */
  setFaults(faults: Partial<FaultRates>): void;
  /** Destroys every WebSocket pipe now; returns how many. */
  killStreams(): number;
  /** New WebSocket upgrades wait (a longer outage) until `releaseUpgrades()`. */
  holdUpgrades(): void;
  releaseUpgrades(): void;
  stats(): FaultProxyStats;
  /**
   * Resolves `true` once no request is held or being forwarded (delayed ones included), `false`
   * if that takes longer than `boundMs` (default 30 s).
   */
  idle(boundMs?: number): Promise<boolean>;
  close(): Promise<void>;
}
