/**
 * Clearing reports (`GET /_sim/auctions/{auctionId}`, `GET /_sim/auctions/current`): why an auction
 * cleared where it did. There is no second implementation of the rule here: the report re-runs
 * clearColumns (pure, deterministic) on the book as it cleared, with `explain`, and checks that it
 * gives the fills the engine wrote; nearMiss re-runs it with one limit changed (report-near-miss.ts).
 */

import { clearColumns } from './clearing.js';
import { MARKET } from './clearing-checks.js';
import type { ClearingColumns, ClearingExplanation, ClearingRule, MarginalLevel } from './clearing-types.js';
import { formatCentiBps, usdMoney, type WireMoney } from './money.js';
import { NearMissSearch } from './report-near-miss.js';
import { iso } from './rest-shapes.js';
import type { EngineState } from './state.js';
import type { Auction, Order } from './types.js';

/** One region of the fee axis with each side's eligible volume (docs/AUCTION.md's tables). */
export interface CurveRegion {
  /** The region's lower end in bps; null below the lowest limit. A point has fromBps = toBps. */
  fromBps: string | null;
  /** Its upper end; null above the highest limit. Between two limits both ends are excluded. */
  toBps: string | null;
  /** BURN volume eligible at every fee of the region. */
  burn: WireMoney;
  /** MINT volume eligible at every fee of the region. */
  mint: WireMoney;
  /** Whether the region is part of the span the fee was chosen from. */
  chosen: boolean;
}

/** One order of the book, as the clearing saw it. */
export interface ReportOrder {
  /** The order's id. */
  orderId: string;
  /** The entity that placed it. */
  entity: string;
  /** That entity's name in the simulator (`burner`, `noise-0007`, ...). */
  entityName: string;
  /** `BURN` or `MINT`. */
  orderType: 'BURN' | 'MINT';
  /** Its amount. */
  amount: WireMoney;
  /** Its limit in bps at the clear; null for a market order. */
  feeBps: string | null;
  /** Whether it was eligible across the chosen span (the interval, not the rounded fee, decides). */
  eligible: boolean;
  /** What it filled (indicative for the open auction). */
  filledAmount: WireMoney;
  /** Present for an order of the long side's marginal level, which shared pro rata. */
  proRata?: {
    /** The level's limit in bps; null when the market orders shared. */
    levelFeeBps: string | null;
    /** The level's total amount on this side. */
    levelAmount: WireMoney;
    /** What the level shared among its orders. */
    sharedAmount: WireMoney;
  };
  /**
   * For an order that did not fill in full: the nearest limit at which it would have, the rest of
   * the book unchanged (null: no limit would have). Absent for an order that filled in full.
   */
  nearMiss?: {
    /** That limit in bps. */
    feeBps: string;
  } | null;
}

/** `GET /_sim/auctions/{auctionId}`: the clearing report of a cleared auction. */
export interface ClearingReport {
  /** The auction. */
  auctionId: number;
  /** When it cleared. */
  clearedAt: string;
  /** The uniform clearing fee in bps. */
  clearingFeeBps: string;
  /** BURN fills and MINT fills each sum to this. */
  matchedVolume: WireMoney;
  /** Which step of the rule chose the fee. */
  rule: ClearingRule;
  /** The fee used without limits or with one side empty. */
  referenceFeeBps: string;
  /** Eligible volume per side for every region of the fee axis, ascending. */
  curves: CurveRegion[];
  /** Every order of the book at the clear, in admission order. */
  orders: ReportOrder[];
  /**
   * False when a large book used up the report's work bound (NEAR_MISS_BUDGET) before every
   * nearMiss was found: the orders past it carry none.
   */
  nearMissComplete: boolean;
}

/** Orders cleared, summed over nearMiss trials, per report: about a second of work. */
export const NEAR_MISS_BUDGET = 4_000_000;

/** `GET /_sim/auctions/current`: what the open auction would clear at from what rests now. */
export interface IndicativeReport {
  /** The open auction. */
  auctionId: number;
  /** `open` or `lock`. */
  phase: string;
  /** When it clears. */
  clearsAt: string;
  /** The fee it would clear at now. */
  indicativeFeeBps: string;
  /** The volume it would match now. */
  indicativeVolume: WireMoney;
  /** Eligible BURN minus eligible MINT at that fee, absolute. */
  imbalance: WireMoney;
  /** The side with more eligible volume there; null when balanced. */
  longSide: 'BURN' | 'MINT' | null;
  /** Which step of the rule would choose the fee. */
  rule: ClearingRule;
  /** Orders resting now. */
  orderCount: number;
  /** Eligible volume per side for every region of the fee axis, as in the clearing report. */
  curves: CurveRegion[];
}

/** The book of `orders` as clearing columns (the engine's BookColumns, plain). */
function columnsOf(orders: readonly Order[]): ClearingColumns {
  const n = orders.length;
  const book: ClearingColumns = {
    isBurn: new Uint8Array(n),
    amountCents: new Float64Array(n),
    limitCentiBps: new Float64Array(n),
    createdAt: new Float64Array(n),
    orderId: orders.map((o) => o.orderId),
  };
  orders.forEach((o, i) => {
    book.isBurn[i] = o.orderType === 'BURN' ? 1 : 0;
    book.amountCents[i] = o.amountCents;
    book.limitCentiBps[i] = o.limitCentiBps ?? MARKET;
    book.createdAt[i] = o.createdAt;
  });
  return book;
}

const bps = (centi: number): string => formatCentiBps(centi);

/** The report of an auction that cleared (undefined: unknown or not cleared). */
export function clearingReport(
  state: EngineState,
  auction: Auction,
  referenceFeeCentiBps: number,
): ClearingReport {
  if (auction.clearedAt === null || auction.clearingFeeCentiBps === null)
    throw new Error(`auction ${auction.auctionId} has not cleared`);
  const orders = auction.orders.filter((o) => o.clearedIn === auction);
  const book = columnsOf(orders);
  const result = clearColumns(book, { referenceFeeCentiBps, explain: true });
  const x = result.explanation as ClearingExplanation;
  const search = new NearMissSearch(book, referenceFeeCentiBps, x.levels, NEAR_MISS_BUDGET);
  // The same rule on the same book: anything else means the book changed after the clear.
  if (
    result.clearingFeeCentiBps !== auction.clearingFeeCentiBps ||
    result.matchedCents !== auction.matchedCents ||
    orders.some((o, i) => o.filledCents !== result.filledCents[i])
  )
    throw new Error(`auction ${auction.auctionId}: its book no longer gives the fills it cleared with`);
  const report: ClearingReport = {
    auctionId: auction.auctionId,
    clearedAt: iso(auction.clearedAt),
    clearingFeeBps: bps(result.clearingFeeCentiBps),
    matchedVolume: usdMoney(result.matchedCents),
    rule: x.rule,
    referenceFeeBps: bps(referenceFeeCentiBps),
    curves: curvesOf(x),
    orders: orders.map((o, i) => {
      const level = x.levelOf[i]!;
      const burn = o.orderType === 'BURN';
      const eligible = level === MARKET || (burn ? level >= x.burnFromLevel : level <= x.mintUpToLevel);
      const row: ReportOrder = {
        orderId: o.orderId,
        entity: o.entityId,
        entityName: state.entities.get(o.entityId)?.name ?? '',
        orderType: o.orderType,
        amount: usdMoney(o.amountCents),
        feeBps: o.limitCentiBps === null ? null : bps(o.limitCentiBps),
        eligible,
        filledAmount: usdMoney(o.filledCents),
      };
      const marginal = burn ? x.burnMarginal : x.mintMarginal;
      if (marginal && result.matchedCents > 0 && level === marginal.level)
        row.proRata = proRataOf(x, marginal);
      if (o.filledCents < o.amountCents) {
        const near = search.find(i);
        if (near !== undefined) row.nearMiss = near === null ? null : { feeBps: bps(near) };
      }
      return row;
    }),
    nearMissComplete: true,
  };
  report.nearMissComplete = search.complete;
  return report;
}

function proRataOf(x: ClearingExplanation, m: MarginalLevel): NonNullable<ReportOrder['proRata']> {
  return {
    levelFeeBps: m.level === MARKET ? null : bps(x.levels[m.level]!),
    levelAmount: usdMoney(m.levelCents),
    sharedAmount: usdMoney(m.sharedCents),
  };
}

function curvesOf(x: ClearingExplanation): CurveRegion[] {
  const k = x.levels.length;
  const out: CurveRegion[] = [];
  for (let r = 0; r <= 2 * k; r++) {
    const point = r % 2 === 1;
    const below = point ? (r - 1) / 2 : r / 2;
    out.push({
      fromBps: point ? bps(x.levels[below]!) : r === 0 ? null : bps(x.levels[below - 1]!),
      toBps: point ? bps(x.levels[below]!) : r === 2 * k ? null : bps(x.levels[below]!),
      burn: usdMoney(x.burnByRegion[r]!),
      mint: usdMoney(x.mintByRegion[r]!),
      chosen: r >= x.firstRegion && r <= x.lastRegion,
    });
  }
  return out;
}

/** The open auction's indicative clear from the orders resting in it now. */
export function indicativeReport(auction: Auction, referenceFeeCentiBps: number): IndicativeReport {
  const orders = auction.orders.filter((o) => o.status === 'pending');
  const result = clearColumns(columnsOf(orders), { referenceFeeCentiBps, explain: true });
  const x = result.explanation as ClearingExplanation;
  const burn = x.burnByRegion[x.firstRegion] ?? 0;
  const mint = x.mintByRegion[x.firstRegion] ?? 0;
  return {
    auctionId: auction.auctionId,
    phase: auction.phase,
    clearsAt: iso(auction.clearsAt),
    indicativeFeeBps: bps(result.clearingFeeCentiBps),
    indicativeVolume: usdMoney(result.matchedCents),
    imbalance: usdMoney(Math.abs(burn - mint)),
    longSide: burn > mint ? 'BURN' : mint > burn ? 'MINT' : null,
    rule: x.rule,
    orderCount: orders.length,
    curves: curvesOf(x),
  };
}
