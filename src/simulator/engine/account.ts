import { venueError } from './errors.js';
import { usdMoney } from './money.js';
import { iso } from './rest-shapes.js';
import type { EngineState } from './state.js';
import type { ActivitySums } from './types.js';

/** The cumulative sums through the entity's last stored entry before `at` (undefined: none). */
export type ArchivedActivity = (entityId: string, at: number) => ActivitySums | undefined;

const NONE: ActivitySums = { matched: 0, rebates: 0, fees: 0 };

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
  archived?: ArchivedActivity,
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
    // Every entry in memory is at or after `from`: the sums before it are the store's, when
    // entries left memory for one (drainActivity), else the log's base.
    const before =
      lo === 0 && archived
        ? (archived(entityId, from) ?? NONE)
        : { matched: log.matched[lo] ?? 0, rebates: log.rebates[lo] ?? 0, fees: log.fees[lo] ?? 0 };
    matched = (log.matched[hi] ?? 0) - before.matched;
    rebates = (log.rebates[hi] ?? 0) - before.rebates;
    fees = (log.fees[hi] ?? 0) - before.fees;
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

export function accountSummary(
  state: EngineState,
  entityId: string,
  now: number,
  windowMs: number,
  archived?: ArchivedActivity,
) {
  return toWireAccount(accountNumbers(state, entityId, now, windowMs, archived));
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

/** An activity entry leaving memory: its time and the cumulative sums through it. */
export interface ActivityEntry extends ActivitySums {
  entityId: string;
  at: number;
}

/**
 * Takes the entries before `before` out of memory (a long run's store keeps them; see
 * accountNumbers' `archived`). The prefix sums stay cumulative from the run's start: the first
 * kept sum becomes the base, so the sums in memory and in the store subtract alike.
 */
export function drainActivity(state: EngineState, before: number): ActivityEntry[] {
  const out: ActivityEntry[] = [];
  for (const [entityId, log] of state.activity) {
    const k = firstAtOrAfter(log.at, before);
    if (k === 0) continue;
    for (let i = 0; i < k; i++)
      out.push({
        entityId,
        at: log.at[i] as number,
        matched: log.matched[i + 1] as number,
        rebates: log.rebates[i + 1] as number,
        fees: log.fees[i + 1] as number,
      });
    log.at.splice(0, k);
    log.matched.splice(0, k);
    log.rebates.splice(0, k);
    log.fees.splice(0, k);
  }
  return out;
}
