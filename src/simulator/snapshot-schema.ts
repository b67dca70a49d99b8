/**
 * The snapshot document's shape (`POST /_sim/restore`, `sim.restore`), checked with zod before
 * anything is touched: a document edited by hand or cut short is refused with the path and the
 * rule, never half applied. References between parts (an auction's orders) are checked on import.
 */
import { z } from 'zod';

/** The format this simulator writes and reads; another is refused (snapshot.ts). */
export const SNAPSHOT_FORMAT = 'match-venue-sim-snapshot';
/** Bumped whenever the document's shape or meaning changes. */
export const SNAPSHOT_VERSION = 1;

const int = z.number().int('must be an integer');
const cents = int.refine(Number.isSafeInteger, 'must be a safe integer');
const nonNegative = int.min(0, 'must not be negative');
const time = z.union([nonNegative, z.literal('Infinity')]);
const id = z.string().min(1).max(200);
const sides = z.object({ BURN: nonNegative, MINT: nonNegative }).strict();
const ledger = z.object({ usdCents: cents, stablecoinCents: cents }).strict();
const orderType = z.enum(['BURN', 'MINT']);

const entity = z
  .object({
    id,
    accountId: id,
    name: id,
    apiKey: id,
    eligible: z.boolean(),
    hasAccount: z.boolean(),
    walletIds: z.array(id),
    fiatAccountIds: z.array(id),
    fundingSide: orderType,
    venueBalanceCents: cents,
    venueReservedCents: cents,
    withdrawalHeldCents: cents,
  })
  .strict();

const order = z
  .object({
    orderId: id,
    entityId: id,
    auctionId: nonNegative,
    orderType,
    amountCents: cents,
    feeBps: z.string().max(32).nullable(),
    limitCentiBps: int.nullable(),
    postFillAction: z.enum(['roll', 'fallback', 'cancel']),
    status: z.enum(['pending', 'settling', 'filled', 'partial_fill', 'unfilled', 'cancelled', 'failed']),
    createdAt: nonNegative,
    updatedAt: nonNegative,
    sourceWalletId: id.nullable(),
    fiatAccountId: id.nullable(),
    parentOrderId: id.nullable(),
    childOrderId: id.nullable(),
    clearedIn: nonNegative.nullable(),
    filledCents: cents,
    feeCents: cents,
    placedLimitCentiBps: int.nullable(),
  })
  .strict();

const auction = z
  .object({
    auctionId: nonNegative,
    phase: z.enum(['open', 'lock', 'clearing', 'settling', 'settled']),
    opensAt: nonNegative,
    locksAt: time,
    clearsAt: time,
    clearedAt: nonNegative.nullable(),
    settleAt: time.nullable(),
    settledAt: nonNegative.nullable(),
    clearingFeeCentiBps: int.nullable(),
    matchedCents: cents,
    fillsCount: nonNegative,
    orders: z.array(id),
    pending: z.record(z.string(), sides),
    placed: z.record(z.string(), nonNegative),
    cyclesHeld: nonNegative,
  })
  .strict();

const withdrawal = z
  .object({
    id,
    entityId: id,
    amountCents: cents,
    fiatAccountId: id,
    status: z.enum(['pending', 'processing', 'completed']),
    createdAt: nonNegative,
    updatedAt: nonNegative,
    processingAt: nonNegative,
    completesAt: nonNegative,
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
          balanceCents: cents,
          reservedCents: cents,
        })
        .strict(),
    ),
    fiatAccounts: z.array(z.object({ id, entityId: id, balanceCents: cents }).strict()),
    orders: z.array(order),
    ordersByEntity: z.record(z.string(), z.array(id)),
    auctions: z.array(auction).min(1, 'must hold the current auction'),
    currentAuctionId: nonNegative,
    settlingAuctionId: nonNegative.nullable(),
    lastClearedAuctionId: nonNegative.nullable(),
    withdrawals: z.array(withdrawal),
    activeWithdrawals: z.array(id),
    fallbacks: z.array(id),
    wires: z.array(
      z.object({ entityId: id, fiatAccountId: id, amountCents: cents, settledAt: nonNegative }).strict(),
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
          at: z.array(nonNegative),
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
    version: z.literal(SNAPSHOT_VERSION),
    clock: z.object({ now: nonNegative }).strict(),
    seed: int,
    config: z
      .object({
        cycleMs: nonNegative,
        lockMs: nonNegative,
        settleMs: nonNegative,
        maxOrdersPerAuction: nonNegative,
        transactionLimitCents: cents,
        referenceFeeCentiBps: nonNegative,
        withdrawalProcessingMs: nonNegative,
        withdrawalCompleteMs: nonNegative,
        activityWindowMs: nonNegative,
      })
      .strict(),
    engine: z
      .object({ time: nonNegative, random: nonNegative, firstOpenPending: z.boolean(), state: engineState })
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
  /** The document format's version (SNAPSHOT_VERSION); another is refused. */
  version: typeof SNAPSHOT_VERSION;
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
