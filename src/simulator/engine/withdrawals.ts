import { isVenueCurrency, VENUE_CURRENCY_RULE } from '../../contract/money.js';
import { VenueError, venueError } from './errors.js';
import { formatCents, isOversizeAmount, parseCents, usdMoney } from './money.js';
import { requireEligible, venueAvailableCents } from './orders.js';
import { iso } from './rest-shapes.js';
import { type EngineContext, type EngineState, mustEntity } from './state.js';
import type { WireWithdrawal, Withdrawal } from './types.js';

export interface WithdrawalInput {
  idempotencyKey: string;
  amount: { amount: string; currency: string };
  fiatAccountId: string;
}

export function toWireWithdrawal(
  w: Pick<Withdrawal, 'id' | 'status' | 'amountCents' | 'fiatAccountId' | 'createdAt' | 'updatedAt'>,
): WireWithdrawal {
  return {
    id: w.id,
    status: w.status,
    amount: usdMoney(w.amountCents),
    fiatAccountId: w.fiatAccountId,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
}

/**
 * Wires venue-only stablecoin out as USD to a fiat account, without fee. The id is the idempotency
 * key. Only the unreserved part can go: 138001 above the venue-only balance less what resting or
 * settling MINT orders reserve and what withdrawals in flight hold (the spec's limit table names
 * 138001 for "above available balance", so 137001 is not used here).
 */
export function createWithdrawal(
  ctx: EngineContext,
  entityId: string,
  input: WithdrawalInput,
): WireWithdrawal {
  const { state, config } = ctx;
  const entity = mustEntity(state, entityId);
  requireEligible(entity);
  if (!entity.hasAccount) throw venueError.AccountNotFound();
  const cents = parseCents(input.amount.amount);
  const paramsKey = JSON.stringify([
    entityId,
    cents ?? input.amount.amount,
    input.amount.currency,
    input.fiatAccountId,
  ]);
  const existing = state.withdrawals.get(input.idempotencyKey);
  if (existing) {
    if (existing.paramsKey !== paramsKey) throw venueError.IdempotencyKeyReused(input.idempotencyKey);
    return existing.createResult;
  }
  const oversize = cents === undefined && isOversizeAmount(input.amount.amount);
  if (!oversize && (cents === undefined || cents <= 0))
    throw venueError.WithdrawalInvalid('amount must be a positive amount with at most 2 decimals');
  if (!isVenueCurrency(input.amount.currency))
    throw venueError.WithdrawalInvalid(`amount currency ${VENUE_CURRENCY_RULE}`);
  if (cents === undefined || cents > config.transactionLimitCents)
    throw venueError.TransactionLimitExceeded(formatCents(config.transactionLimitCents));
  const fiat = state.fiatAccounts.get(input.fiatAccountId);
  if (!fiat || fiat.entityId !== entityId) throw venueError.InvalidWithdrawalDestination(input.fiatAccountId);
  const available = venueAvailableCents(entity);
  if (cents > available)
    throw venueError.WithdrawalExceedsBalance(
      `Withdrawal of ${formatCents(cents)} USD exceeds the available venue-only balance of ${formatCents(available)} USD (balance ${formatCents(entity.venueBalanceCents)}, reserved by MINT orders ${formatCents(entity.venueReservedCents)}, held by withdrawals in flight ${formatCents(entity.withdrawalHeldCents)})`,
    );
  entity.withdrawalHeldCents += cents;
  const fields = {
    id: input.idempotencyKey,
    entityId,
    amountCents: cents,
    fiatAccountId: fiat.id,
    status: 'pending' as const,
    createdAt: ctx.time,
    updatedAt: ctx.time,
    processingAt: ctx.time + config.withdrawalProcessingMs,
    completesAt: ctx.time + config.withdrawalCompleteMs,
    paramsKey,
  };
  // The answer a replay of this request gets, frozen at creation.
  const w: Withdrawal = { ...fields, createResult: toWireWithdrawal(fields) };
  state.withdrawals.set(w.id, w);
  state.activeWithdrawals.add(w.id);
  ctx.dirty.add(entityId);
  if (ctx.wants(entityId))
    ctx.emit({ channel: 'account', entityId, event: 'withdrawal.updated', data: toWireWithdrawal(w) });
  return w.createResult;
}

export function nextWithdrawalDeadline(state: EngineState): number | null {
  let next: number | null = null;
  for (const id of state.activeWithdrawals) {
    const w = state.withdrawals.get(id);
    if (!w) continue;
    const at = w.status === 'pending' ? w.processingAt : w.completesAt;
    if (next === null || at < next) next = at;
  }
  return next;
}

/** The simulated payout processor: pending -> processing -> completed, on the clock. */
export function advanceWithdrawal(ctx: EngineContext, due: number): void {
  const { state } = ctx;
  for (const id of [...state.activeWithdrawals]) {
    const w = state.withdrawals.get(id);
    if (!w) continue;
    if (w.status === 'pending' && w.processingAt <= due) {
      w.status = 'processing';
    } else if (w.status === 'processing' && w.completesAt <= due) {
      const entity = mustEntity(state, w.entityId);
      const fiat = state.fiatAccounts.get(w.fiatAccountId);
      if (!fiat) throw new VenueError(500, -1, `withdrawal ${w.id} lost its fiat account`);
      entity.venueBalanceCents -= w.amountCents;
      entity.withdrawalHeldCents -= w.amountCents;
      state.issuer.stablecoinCents += w.amountCents;
      state.issuer.usdCents -= w.amountCents;
      fiat.balanceCents += w.amountCents;
      w.status = 'completed';
      state.activeWithdrawals.delete(id);
      ctx.dirty.add(w.entityId);
    } else continue;
    w.updatedAt = due;
    if (!ctx.wants(w.entityId)) continue;
    ctx.emit({
      channel: 'account',
      entityId: w.entityId,
      event: 'withdrawal.updated',
      data: toWireWithdrawal(w),
    });
  }
}
