import type * as models from '../../generated/models.js';

// The unions REST shows are the contract's (src/generated/models.ts), not restated here.
/** `BURN`: stablecoin to USD. `MINT`: USD to stablecoin. */
export type OrderType = models.OrderType;
/** An order's lifecycle state, as REST shows it. */
export type OrderStatus = models.OrderStatus;
/** What happens to an unfilled remainder: rolled into the next auction, routed to the standard product, or dropped. */
export type PostFillAction = models.PostFillAction;
/** Where an auction is in its cycle. */
export type AuctionPhase = 'open' | 'lock' | 'clearing' | 'settling' | 'settled';
/** The simulated payout processor's steps (the contract's Withdrawal leaves `status` open). */
export type WithdrawalStatus = 'pending' | 'processing' | 'completed';

/** USD stablecoin wallets are the venue's; an EUR-denominated wallet exists to exercise 137002. */
export interface Wallet {
  id: string;
  entityId: string;
  currency: 'USD' | 'EUR';
  balanceCents: number;
  reservedCents: number;
}

/** An external bank account: settlement proceeds and withdrawals arrive here. */
export interface FiatAccount {
  id: string;
  entityId: string;
  balanceCents: number;
}

export interface Entity {
  id: string;
  accountId: string;
  name: string;
  apiKey: string;
  eligible: boolean;
  hasAccount: boolean;
  walletIds: string[];
  fiatAccountIds: string[];
  /**
   * The side the entity was onboarded for: what its account summary reports (account.ts). Fixed at
   * seeding; either kind may still trade the other side with the matching funds.
   */
  fundingSide: FundingSide;
  /**
   * Venue-only stablecoin: prefunded by settled USD wires, segregated from the ordinary wallets.
   * MINT orders draw on it, withdrawals wire it back out.
   */
  venueBalanceCents: number;
  /** Part of the venue-only balance held by resting or settling MINT orders. */
  venueReservedCents: number;
  /** Part of the venue-only balance promised to withdrawals not yet completed. */
  withdrawalHeldCents: number;
}

/** MINT: prefunds a venue-only balance by wire; BURN: sells from its ordinary stablecoin wallet. */
export type FundingSide = 'MINT' | 'BURN';

/** A settled USD wire that landed on an entity's venue-only balance (`POST /_sim/wires`). */
export interface Wire {
  entityId: string;
  fiatAccountId: string;
  amountCents: number;
  settledAt: number;
}

/** An order's fill as REST shows it (`fillOf`): kept on the order as filledCents and feeCents. */
export interface Fill {
  filledCents: number;
  unfilledCents: number;
  clearingFeeCentiBps: number;
  matchedAt: number;
  /** BURN: the fee paid; MINT: the rebate earned (both non-negative for non-negative fees). */
  feeCents: number;
}

export interface Order {
  orderId: string;
  entityId: string;
  auctionId: number;
  orderType: OrderType;
  amountCents: number;
  feeBps: string | null;
  limitCentiBps: number | null;
  postFillAction: PostFillAction;
  status: OrderStatus;
  createdAt: number;
  updatedAt: number;
  sourceWalletId: string | null;
  fiatAccountId: string | null;
  parentOrderId: string | null;
  childOrderId: string | null;
  /**
   * The auction whose clearing filled this order (its own), null until it clears: the fill's fee
   * and time are that auction's, so each order keeps two numbers, not a Fill object.
   */
  clearedIn: Auction | null;
  /** Cents filled at the clear (0 before). */
  filledCents: number;
  /** The fee (BURN) or rebate (MINT) on the fill (0 before). */
  feeCents: number;
  /**
   * The limit the placing request named (modify changes `limitCentiBps`, not this): with the fields
   * above it is the request's parameters, compared field by field on an idempotent replay, so no
   * per-order key string is kept.
   */
  placedLimitCentiBps: number | null;
}

/** What placeOrder answers; `pending` on acceptance (a replay answers the same). */
export type PlaceResult = {
  auctionId: number;
  orderId: string;
  status: 'pending';
};

export interface Auction {
  auctionId: number;
  phase: AuctionPhase;
  opensAt: number;
  locksAt: number;
  clearsAt: number;
  /** When the clearing happened; settlement is due at settleAt (Infinity: only on demand). */
  clearedAt: number | null;
  settleAt: number | null;
  settledAt: number | null;
  clearingFeeCentiBps: number | null;
  matchedCents: number;
  fillsCount: number;
  /** Every order admitted into this auction (placed or rolled in), in admission order. */
  orders: Order[];
  /** entityId -> its pending orders here by side: the self-match check (137006) is O(1). */
  pending: Map<string, SideCounts>;
  /** entityId -> orders it placed here, cancelled ones included, roll children not (137008). */
  placed: Map<string, number>;
  /**
   * Cycles this auction stayed open beyond its own because a clock jump found nothing that could
   * trade (cycle.ts holdDormantAuction); the next auction's id counts them, so ids still count
   * elapsed cycles.
   */
  cyclesHeld: number;
}

export interface SideCounts {
  BURN: number;
  MINT: number;
}

export interface Withdrawal {
  id: string;
  entityId: string;
  amountCents: number;
  fiatAccountId: string;
  status: WithdrawalStatus;
  createdAt: number;
  updatedAt: number;
  processingAt: number;
  completesAt: number;
  paramsKey: string;
  /** The 201 body's data, replayed byte-for-byte for the same key and parameters. */
  createResult: WireWithdrawal;
}

/** A withdrawal as REST answers it (a type, not an interface: it is the contract's `Withdrawal`). */
export type WireWithdrawal = {
  id: string;
  status: WithdrawalStatus;
  amount: { amount: string; currency: string };
  fiatAccountId: string;
  createdAt: string;
  updatedAt: string;
};

/** A counter-account; may go negative (the house by rounding, the issuer by supply changes). */
export interface Ledger {
  usdCents: number;
  stablecoinCents: number;
}

/** The venue's parameters; SimulatorOptions sets them. */
export interface EngineConfig {
  /** Auction length (open to clear). Default 10 s. */
  cycleMs: number;
  /** Lock window before the clear. Default 2 s. */
  lockMs: number;
  /** Clear to settlement. Default 1 s. */
  settleMs: number;
  /** Orders one entity may place per auction (137008 beyond). Default 50. */
  maxOrdersPerAuction: number;
  /** Largest order or withdrawal, in cents (137009 beyond). Default 10,000,000 USD. */
  transactionLimitCents: number;
  /** The clearing fee when the book has no limit order or one side is empty, in hundredths of a bp. Default 5 bps. */
  referenceFeeCentiBps: number;
  /** Payout processor: pending -> processing after this, -> completed after completeMs. */
  withdrawalProcessingMs: number;
  /** See withdrawalProcessingMs. */
  withdrawalCompleteMs: number;
  /** The account summary's activity window. Default 24 h. */
  activityWindowMs: number;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  cycleMs: 10_000,
  lockMs: 2_000,
  settleMs: 1_000,
  maxOrdersPerAuction: 50,
  transactionLimitCents: 1_000_000_000,
  referenceFeeCentiBps: 500,
  withdrawalProcessingMs: 1_000,
  withdrawalCompleteMs: 3_000,
  activityWindowMs: 24 * 60 * 60 * 1000,
};

/** Settlement failures to inject (part of `setFaults`). */
export interface SettlementFaults {
  /** Orders whose settlement fails (status `failed`, reservations released). */
  failOrderIds?: readonly string[];
  /** Fraction in [0, 1] of settling orders that fail, drawn from the seeded generator. */
  failRate?: number;
  /**
   * The `settlement-slow` preset: a clear the clock runs settles a whole cycle later, when the next
   * auction clears (which settles the previous auction first), instead of `settleMs` after it.
   */
  slow?: boolean;
}

/**
 * What the simulator emits (`sim.onEvent`), one type for the engine, the WebSocket hub and the
 * webhook deliveries. Market: `auction.opened | auction.locked | auction.cleared |
 * auction.settled`, data = the auction. Account: `order.accepted`, `order.updated` (the Order as
 * REST shows it), `withdrawal.updated`, `balance.updated` (the AccountSummary).
 */
export type SimulatorEvent = SimulatorMarketEvent | SimulatorAccountEvent;
/** A market event: every subscriber sees it. */
export interface SimulatorMarketEvent {
  /** Always `market`. */
  channel: 'market';
  /** The event's name, e.g. `auction.cleared`. */
  event: string;
  /** The auction (a WireAuction). */
  data: unknown;
}
/** An account event: only its entity sees it. */
export interface SimulatorAccountEvent {
  /** Always `account`. */
  channel: 'account';
  /** The entity the event belongs to. */
  entityId: string;
  /** The event's name, e.g. `order.updated`. */
  event: string;
  /** The Order, withdrawal or AccountSummary, as REST shows it. */
  data: unknown;
}

/** Cumulative account activity sums (cents) up to some instant. */
export interface ActivitySums {
  matched: number;
  rebates: number;
  fees: number;
}

/**
 * One part of a clock jump run as several steps (src/simulator/clock/clock-jump.ts).
 * @hidden
 */
export interface JumpPart {
  /** The entities the earlier parts touched: their balance events wait for the last part. */
  readonly touched: Set<string>;
  /** The jump's last part: it reports every entity the jump touched. */
  readonly last: boolean;
}
