/** createSimulator's options, and the engine configuration drawn from them. */
import { parseCentiBps, parseCents } from './engine/money.js';
import type { EngineConfig } from './engine/types.js';
import type { RateLimitOptions } from './http/rate-limit.js';

export interface Logger {
  info(message: string): void;
  error(message: string, err?: unknown): void;
}

export interface SimulatorOptions {
  /** 'manual' (default): time moves only by advance()/clearAuction(); 'real': timers drive phases. */
  clock?: 'real' | 'manual';
  /** Manual clock start, epoch ms or ISO string. Default 2026-01-01T00:00:00.000Z. */
  startTime?: number | string;
  cycleMs?: number;
  lockMs?: number;
  settleMs?: number;
  maxOrdersPerAuction?: number;
  /** Per-transaction limit for orders and withdrawals, a USD decimal string. Default '10000000.00'. */
  transactionLimit?: string;
  /** Clearing fee when no limit order is present, basis points. Default '5'. */
  referenceFeeBps?: string;
  withdrawalProcessingMs?: number;
  withdrawalCompleteMs?: number;
  activityWindowMs?: number;
  /** Seeds fault draws (error rate, settlement failure rate). */
  seed?: number;
  /** 429 with Retry-After past this many requests per API key per window. Off by default. */
  rateLimit?: RateLimitOptions;
  /** Receives unexpected handler errors (500s). Default: console.error, info silent. */
  logger?: Logger;
  /** Platform (webhooks) environment rules. Default 'sandbox'. */
  platformMode?: 'sandbox' | 'production';
  /** fetch used for webhook deliveries. Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Lifetime of WebSocket tickets on the simulator clock, ms. Default 30000. */
  ticketTtlMs?: number;
}

/** The engine's part of the options, checked. */
export function engineConfig(o: SimulatorOptions): Partial<EngineConfig> {
  const c: Partial<EngineConfig> = {};
  if (o.cycleMs !== undefined) c.cycleMs = o.cycleMs;
  if (o.lockMs !== undefined) c.lockMs = o.lockMs;
  if (o.settleMs !== undefined) c.settleMs = o.settleMs;
  if (o.maxOrdersPerAuction !== undefined) c.maxOrdersPerAuction = o.maxOrdersPerAuction;
  if (o.withdrawalProcessingMs !== undefined) c.withdrawalProcessingMs = o.withdrawalProcessingMs;
  if (o.withdrawalCompleteMs !== undefined) c.withdrawalCompleteMs = o.withdrawalCompleteMs;
  if (o.activityWindowMs !== undefined) c.activityWindowMs = o.activityWindowMs;
  if (o.transactionLimit !== undefined) {
    const cents = parseCents(o.transactionLimit);
    if (cents === undefined || cents <= 0)
      throw new RangeError('transactionLimit must be a positive USD amount');
    c.transactionLimitCents = cents;
  }
  if (o.referenceFeeBps !== undefined) {
    const centi = parseCentiBps(o.referenceFeeBps);
    if (centi === undefined) throw new RangeError('referenceFeeBps must be a non-negative decimal string');
    c.referenceFeeCentiBps = centi;
  }
  return c;
}
