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
  let active = 0;
  let mint = 0;
  let burn = 0;
  let matched = 0;
  let rebates = 0;
  let fees = 0;
  const from = now - windowMs;
  for (const o of state.ordersByEntity.get(entityId) ?? []) {
    if (o.status === 'pending') {
      active++;
      if (o.orderType === 'MINT') mint++;
      else burn++;
    }
    const f = o.fill;
    if (!f || f.filledCents === 0 || f.matchedAt < from || f.matchedAt > now) continue;
    if (o.status !== 'filled' && o.status !== 'partial_fill') continue;
    matched += f.filledCents;
    if (o.orderType === 'MINT') rebates += f.feeCents;
    else fees += f.feeCents;
  }
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
