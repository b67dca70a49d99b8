/**
 * The snapshot document's shape (`POST /_sim/restore`, `sim.restore`), checked with zod before
 * anything is touched: a document edited by hand or cut short is refused with the path and the
 * rule, never half applied. References between parts (an auction's orders) are checked on import.
 */
import { z } from 'zod';
import { MAX_DURATION_MS, MAX_INSTANT_MS } from '../clock/start-time.js';
import { parseCentiBps } from '../engine/money.js';

/** The format this simulator writes and reads; another is refused (snapshot/document.ts). */
export const SNAPSHOT_FORMAT = 'match-venue-sim-snapshot';
/**
 * The version this simulator writes; bumped whenever the document's shape or meaning changes.
 * Version 2 writes the orders compactly (snapshot/compact.ts); version 1 (the store's checkpoints,
 * earlier files) is still read.
 */
export const SNAPSHOT_VERSION = 2;
/** The versions restore reads. */
export const SNAPSHOT_VERSIONS_READ: readonly number[] = [1, 2];

const int = z.number().int('must be an integer');
const cents = int.refine(Number.isSafeInteger, 'must be a safe integer');
const nonNegative = int.min(0, 'must not be negative');
/** A balance or an amount held: never below zero (the engine's and the API's rule). */
const held = cents.refine((n) => n >= 0, 'must not be negative');
/** An order, withdrawal or wire amount: at least one cent. */
const amount = cents.refine((n) => n > 0, 'must be positive');
// Every time the document holds is a plain ISO instant (years 1970 to 9999, as `startTime`): later
// arithmetic (a time plus a cycle, an advance of days) and Date's ISO text then stay in range.
const INSTANT_RULE = `must be epoch ms between 0 and ${MAX_INSTANT_MS} (1970 to 9999)`;
const instant = int.min(0, INSTANT_RULE).max(MAX_INSTANT_MS, INSTANT_RULE);
const time = z.union([instant, z.literal('Infinity')]);
/** The engine's durations: at most a year, so that a time plus one stays an instant. */
const duration = nonNegative.max(MAX_DURATION_MS, `must be at most ${MAX_DURATION_MS} ms (a year)`);
/** Counts of ids and orders: at most 2^48, the ids' hex tail (market/entities.ts). */
const count = nonNegative.max(2 ** 48, 'must be at most 2^48');
/** feeBps as the API writes it (decimal bps, at most 2 decimals); its limit is checked to agree. */
const feeBps = z
  .string()
  .max(32)
  .refine((t) => parseCentiBps(t) !== undefined, 'must be a decimal number of bps as the API writes it');
const id = z.string().min(1).max(200);
const sides = z.object({ BURN: nonNegative, MINT: nonNegative }).strict();
const ledger = z.object({ usdCents: cents, stablecoinCents: cents }).strict();
const orderType = z.enum(['BURN', 'MINT']);

const entity = z
  .object({
    id,
    accountId: id,
    name: id,
    // null: withheld (a snapshot taken over HTTP without the control token); restore gives one.
    apiKey: id.nullable(),
    eligible: z.boolean(),
    hasAccount: z.boolean(),
    walletIds: z.array(id),
    fiatAccountIds: z.array(id),
    fundingSide: orderType,
    venueBalanceCents: held,
    venueReservedCents: held,
    withdrawalHeldCents: held,
  })
  .strict();

const order = z
  .object({
    orderId: id,
    entityId: id,
    auctionId: count,
    orderType,
    amountCents: amount,
    feeBps: feeBps.nullable(),
    limitCentiBps: cents.refine((n) => n >= 0, 'must not be negative').nullable(),
    postFillAction: z.enum(['roll', 'fallback', 'cancel']),
    status: z.enum(['pending', 'settling', 'filled', 'partial_fill', 'unfilled', 'cancelled', 'failed']),
    createdAt: instant,
    updatedAt: instant,
    sourceWalletId: id.nullable(),
    fiatAccountId: id.nullable(),
    parentOrderId: id.nullable(),
    childOrderId: id.nullable(),
    clearedIn: count.nullable(),
    filledCents: held,
    feeCents: cents,
    placedLimitCentiBps: cents.nullable(),
  })
  .strict();

const auction = z
  .object({
    auctionId: count,
    phase: z.enum(['open', 'lock', 'clearing', 'settling', 'settled']),
    opensAt: instant,
    locksAt: time,
    clearsAt: time,
    clearedAt: instant.nullable(),
    settleAt: time.nullable(),
    settledAt: instant.nullable(),
    clearingFeeCentiBps: cents.refine((n) => n >= 0, 'must not be negative').nullable(),
    matchedCents: held,
    fillsCount: count,
    orders: z.array(id),
    pending: z.record(z.string(), sides),
    placed: z.record(z.string(), count),
    cyclesHeld: count,
  })
  .strict();

const withdrawal = z
  .object({
    id,
    entityId: id,
    amountCents: amount,
    fiatAccountId: id,
    status: z.enum(['pending', 'processing', 'completed']),
    createdAt: instant,
    updatedAt: instant,
    processingAt: instant,
    completesAt: instant,
    paramsKey: z.string().max(2000),
    createResult: z
      .object({
        id,
        status: z.enum(['pending', 'processing', 'completed']),
        amount: z.object({ amount: z.string().max(64), currency: z.string().max(16) }).strict(),
        fiatAccountId: id,
        createdAt: z.string().max(64),
        updatedAt: z.string().max(64),
      })
      .strict(),
  })
  .strict();

const engineState = z
  .object({
    entities: z.array(entity),
    wallets: z.array(
      z
        .object({
          id,
          entityId: id,
          currency: z.enum(['USD', 'EUR']),
          balanceCents: held,
          reservedCents: held,
        })
        .strict(),
    ),
    fiatAccounts: z.array(z.object({ id, entityId: id, balanceCents: held }).strict()),
    orders: z.array(order),
    ordersByEntity: z.record(z.string(), z.array(id)),
    auctions: z.array(auction).min(1, 'must hold the current auction'),
    currentAuctionId: count,
    settlingAuctionId: count.nullable(),
    lastClearedAuctionId: count.nullable(),
    withdrawals: z.array(withdrawal),
    activeWithdrawals: z.array(id),
    fallbacks: z.array(id),
    wires: z.array(
      z.object({ entityId: id, fiatAccountId: id, amountCents: amount, settledAt: instant }).strict(),
    ),
    house: ledger,
    issuer: ledger,
    initialTotals: z.object({ usdCents: cents, stablecoinCents: cents, eurCents: cents }).strict(),
    seededLedgers: z.object({ house: ledger, issuer: ledger }).strict(),
    exposure: z.record(z.string(), sides),
    activity: z.record(
      z.string(),
      z
        .object({
          at: z.array(instant),
          matched: z.array(cents),
          rebates: z.array(cents),
          fees: z.array(cents),
        })
        .strict(),
    ),
  })
  .strict();

/** The whole document; `market` and `config` are re-checked by their own rules on restore. */
export const SnapshotSchema = z
  .object({
    format: z.literal(SNAPSHOT_FORMAT),
    // Checked in the version 1 shape: a version 2 document is expanded first (snapshot/document.ts).
    version: z.union([z.literal(1), z.literal(SNAPSHOT_VERSION)]),
    clock: z.object({ now: instant }).strict(),
    seed: int,
    config: z
      .object({
        cycleMs: duration.min(1, 'must be at least 1'),
        lockMs: duration,
        settleMs: duration,
        maxOrdersPerAuction: count,
        transactionLimitCents: amount,
        referenceFeeCentiBps: cents.refine((n) => n >= 0, 'must not be negative'),
        withdrawalProcessingMs: duration,
        withdrawalCompleteMs: duration,
        activityWindowMs: duration,
      })
      .strict(),
    engine: z
      .object({ time: instant, random: nonNegative, firstOpenPending: z.boolean(), state: engineState })
      .strict(),
    market: z
      .object({
        config: z.record(z.string(), z.unknown()),
        state: z
          .object({
            random: nonNegative,
            burstLeft: nonNegative,
            oneSidedLeft: nonNegative,
            oneSidedSide: orderType,
            stats: z.object({ placed: nonNegative, refused: z.record(z.string(), nonNegative) }).strict(),
          })
          .strict(),
      })
      .strict()
      .nullable(),
    faults: z.record(z.string(), z.unknown()),
  })
  .strict();

/** A document that passed SnapshotSchema. @hidden */
export type CheckedDocument = z.infer<typeof SnapshotSchema>;

/**
 * A snapshot, as `sim.snapshot()` and `POST /_sim/snapshot` write it (docs/MARKET.md, Snapshots).
 * Its parts follow the simulator's internals: read or edit them knowing that `restore` checks
 * them all, and that `version` changes when their shape or meaning does.
 */
export interface SnapshotDocument {
  /** Always `match-venue-sim-snapshot`. */
  format: typeof SNAPSHOT_FORMAT;
  /** The document format's version (SNAPSHOT_VERSION; restore reads 1 too); another is refused. */
  version: typeof SNAPSHOT_VERSION | 1;
  /** The simulated clock when it was taken. */
  clock: {
    /** Epoch ms. */
    now: number;
  };
  /** The seed of the fault draws and the market. */
  seed: number;
  /** The engine's configuration (cycle, lock, limits, reference fee) in its own units. */
  config: Record<string, number>;
  /** The engine: its clock, generator and state (book, orders, auctions, balances, ledgers, ids). */
  engine: Record<string, unknown>;
  /** The background market's configuration and participant state; null without one. */
  market: {
    /** Its configuration, as resolved from the preset or file. */
    config: Record<string, unknown>;
    /** Its generator, bursts, one-sided period and counts. */
    state: Record<string, unknown>;
  } | null;
  /** The fault set in force (as `POST /_sim/faults` takes it). */
  faults: Record<string, unknown>;
}
