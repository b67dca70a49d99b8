import { venueError } from './errors.js';
import { usdMoney } from './money.js';
import { iso } from './rest-shapes.js';
import type { EngineState } from './state.js';

/** The numbers behind an AccountSummary: cheap to take at an event, formatted when read. */
export interface AccountNumbers {
  accountId: string;
  totalCents: number;
  reservedCents: number;
  burnOrders: number;
  mintOrders: number;
  from: number;
  to: number;
  matchedCents: number;
  rebatesCents: number;
  feesCents: number;
}

/**
 * `stablecoin` is the balance the entity's own side trades from, so that `available` is what its
 * next order (or, mint side, withdrawal) can take. Mint side: total = the venue-only balance,
 * reserved = what resting or settling MINT orders and withdrawals in flight hold. Burn side:
 * total = its USD stablecoin wallets, reserved = what resting or settling BURN orders hold.
 * Activity counts settled fills whose auction cleared inside the window [now - window, now].
 */
export function accountNumbers(
  state: EngineState,
  entityId: string,
  now: number,
  windowMs: number,
): AccountNumbers {
  const entity = state.entities.get(entityId);
  if (!entity?.hasAccount) throw venueError.AccountNotFound();
  let total = 0;
  let reserved = 0;
  if (entity.fundingSide === 'MINT') {
    total = entity.venueBalanceCents;
    reserved = entity.venueReservedCents + entity.withdrawalHeldCents;
  } else {
    for (const id of entity.walletIds) {
      const w = state.wallets.get(id);
      if (w?.currency !== 'USD') continue;
      total += w.balanceCents;
      reserved += w.reservedCents;
    }
  }
  const exposure = state.exposure.get(entityId) ?? { BURN: 0, MINT: 0 };
  const from = now - windowMs;
  const log = state.activity.get(entityId);
  let matched = 0;
  let rebates = 0;
  let fees = 0;
  if (log) {
    const lo = firstAtOrAfter(log.at, from);
    const hi = firstAtOrAfter(log.at, now + 1);
    matched = (log.matched[hi] ?? 0) - (log.matched[lo] ?? 0);
    rebates = (log.rebates[hi] ?? 0) - (log.rebates[lo] ?? 0);
    fees = (log.fees[hi] ?? 0) - (log.fees[lo] ?? 0);
  }
  return {
    accountId: entity.accountId,
    totalCents: total,
    reservedCents: reserved,
    burnOrders: exposure.BURN,
    mintOrders: exposure.MINT,
    from,
    to: now,
    matchedCents: matched,
    rebatesCents: rebates,
    feesCents: fees,
  };
}

/** The AccountSummary as REST shows it. */
export function toWireAccount(n: AccountNumbers) {
  return {
    /** The entity's venue account. */
    accountId: n.accountId,
    /** The stablecoin balance on the venue. */
    stablecoin: {
      /** Free to place or withdraw. */
      available: usdMoney(n.totalCents - n.reservedCents),
      /** Held by resting orders. */
      reserved: usdMoney(n.reservedCents),
      /** Available plus reserved. */
      total: usdMoney(n.totalCents),
    },
    /** Resting orders. */
    exposure: {
      /** All resting orders. */
      activeOrderCount: n.burnOrders + n.mintOrders,
      /** Resting MINT orders. */
      mintOrderCount: n.mintOrders,
      /** Resting BURN orders. */
      burnOrderCount: n.burnOrders,
    },
    /** Totals over the activity window. */
    activity: {
      /** Window start. */
      from: iso(n.from),
      /** Window end. */
      to: iso(n.to),
      /** USD volume matched in the window. */
      totalMatched: usdMoney(n.matchedCents),
      /** Gross rebates earned on MINT fills. */
      rebatesEarned: usdMoney(n.rebatesCents),
      /** Gross fees paid on BURN fills. */
      feesPaid: usdMoney(n.feesCents),
    },
  };
}

export function accountSummary(state: EngineState, entityId: string, now: number, windowMs: number) {
  return toWireAccount(accountNumbers(state, entityId, now, windowMs));
}
/** An account summary exactly as REST returns it: the main entry's `AccountSummary`. */
export type WireAccountSummary = ReturnType<typeof accountSummary>;

function firstAtOrAfter(sorted: readonly number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Records a settled fill (matchedAt never decreases: fills settle in clearing order). */
export function recordActivity(
  state: EngineState,
  entityId: string,
  at: number,
  side: 'BURN' | 'MINT',
  filled: number,
  fee: number,
): void {
  const log = state.activity.get(entityId);
  if (!log) return;
  const n = log.at.length;
  const rebate = side === 'MINT' ? fee : 0;
  const paid = side === 'BURN' ? fee : 0;
  // Fills of one auction settle at one matchedAt: they share an entry, so the log grows by auction
  // with a fill, not by fill (a busy day: about half the entries; the window sums are the same).
  if (n > 0 && log.at[n - 1] === at) {
    log.matched[n] = (log.matched[n] ?? 0) + filled;
    log.rebates[n] = (log.rebates[n] ?? 0) + rebate;
    log.fees[n] = (log.fees[n] ?? 0) + paid;
    return;
  }
  log.at.push(at);
  log.matched.push((log.matched[n] ?? 0) + filled);
  log.rebates.push((log.rebates[n] ?? 0) + rebate);
  log.fees.push((log.fees[n] ?? 0) + paid);
}

/**
 * Drops the entries no activity window can reach any more (before `cutoff`, the oldest `from` a
 * summary can ask for). The prefix sums stay cumulative: the first kept sum becomes the base, so
 * every window over what remains answers as before. Long runs with a store call it as they evict.
 */
export function trimActivity(state: EngineState, cutoff: number): void {
  for (const log of state.activity.values()) {
    const k = firstAtOrAfter(log.at, cutoff);
    if (k === 0) continue;
    log.at.splice(0, k);
    log.matched.splice(0, k);
    log.rebates.splice(0, k);
    log.fees.splice(0, k);
  }
}
