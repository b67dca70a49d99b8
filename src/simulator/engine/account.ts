import { venueError } from './errors.js';
import { usdMoney } from './money.js';
import type { EngineState } from './state.js';
import { iso } from './wire.js';

/**
 * Stablecoin = the entity's USD stablecoin wallets plus its venue-only balance. Reserved = wallet
 * amounts held by resting or settling BURN orders plus venue balance promised to withdrawals in
 * flight. Activity counts settled fills whose auction cleared inside the window [now - window, now].
 */
export function accountSummary(state: EngineState, entityId: string, now: number, windowMs: number) {
  const entity = state.entities.get(entityId);
  if (!entity?.hasAccount) throw venueError.accountNotFound();
  let total = entity.venueBalanceCents;
  let reserved = entity.withdrawalHeldCents;
  for (const id of entity.walletIds) {
    const w = state.wallets.get(id);
    if (w?.currency !== 'USD') continue;
    total += w.balanceCents;
    reserved += w.reservedCents;
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
  const active = exposure.BURN + exposure.MINT;
  const mint = exposure.MINT;
  const burn = exposure.BURN;
  return {
    accountId: entity.accountId,
    stablecoin: {
      available: usdMoney(total - reserved),
      reserved: usdMoney(reserved),
      total: usdMoney(total),
    },
    exposure: { activeOrderCount: active, mintOrderCount: mint, burnOrderCount: burn },
    activity: {
      from: iso(from),
      to: iso(now),
      totalMatched: usdMoney(matched),
      rebatesEarned: usdMoney(rebates),
      feesPaid: usdMoney(fees),
    },
  };
}
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
  log.at.push(at);
  log.matched.push((log.matched[n] ?? 0) + filled);
  log.rebates.push((log.rebates[n] ?? 0) + (side === 'MINT' ? fee : 0));
  log.fees.push((log.fees[n] ?? 0) + (side === 'BURN' ? fee : 0));
}
