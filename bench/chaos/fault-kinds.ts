/**
 * The faults the chaos fault proxy (fault-proxy.ts) can do to one attempt, their default rates, and
 * the seeded draw that picks one: by idempotency key and attempt number, so the same run draws the
 * same faults whatever the arrival order.
 */
import { hash01 } from './support.js';

export interface FaultRates {
  /** Forwarded and processed, answer dropped (connection closed). Default 0.20. */
  dropAnswer: number;
  /** Connection reset after the request was read, nothing forwarded. Default 0.05. */
  resetBeforeForward: number;
  /** 503 `{code: -1}` without forwarding. Default 0.05. */
  unavailable: number;
  /** Held for `delayMs`, then forwarded. Default 0.05. */
  delayRequest: number;
  /** Forwarded at once, answered after `delayMs`. Default 0.05. */
  delayAnswer: number;
}

export const DEFAULT_FAULTS: FaultRates = {
  dropAnswer: 0.2,
  resetBeforeForward: 0.05,
  unavailable: 0.05,
  delayRequest: 0.05,
  delayAnswer: 0.05,
};

export type FaultKind = keyof FaultRates | 'none';

/** The fault for one attempt, and a second draw (the hold time of a delay). */
export function drawFault(
  rates: FaultRates,
  seed: number,
  route: string,
  key: string,
  attempt: number,
): { kind: FaultKind; draw: number } {
  const draw = hash01(seed, 'delay', route, key, attempt);
  let r = hash01(seed, route, key, attempt);
  for (const kind of [
    'dropAnswer',
    'resetBeforeForward',
    'unavailable',
    'delayRequest',
    'delayAnswer',
  ] as const) {
    if (r < rates[kind]) return { kind, draw };
    r -= rates[kind];
  }
  return { kind: 'none', draw };
}
