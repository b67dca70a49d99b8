import { clearAuction, lockAuction, settleAuction } from './cycle.js';
import { currentAuction, type EngineContext, newAuction } from './state.js';
import { advanceWithdrawal, nextWithdrawalDeadline } from './withdrawals.js';

/**
 * A jump shorter than this many whole cycles runs every auction as usual, so that short advances
 * (a test stepping through one or two auctions) see every auction and its events.
 */
const MIN_CYCLES_SKIPPED = 3;

/** The earliest scheduled transition (phase change, settlement, payout step), or null. */
export function nextDeadline(ctx: EngineContext): number | null {
  const { state } = ctx;
  const a = currentAuction(state);
  let next = a.phase === 'open' ? a.locksAt : a.clearsAt;
  const settling = state.settlingAuctionId === null ? undefined : state.auctions.get(state.settlingAuctionId);
  if (settling?.settleAt != null && settling.settleAt < next) next = settling.settleAt;
  const w = nextWithdrawalDeadline(state);
  if (w !== null && w < next) next = w;
  return Number.isFinite(next) ? next : null;
}

/** Runs every transition due at or before `until`, each at its own scheduled instant. */
export function advanceTo(ctx: EngineContext, until: number): void {
  for (;;) {
    skipIdleCycles(ctx, until);
    const due = nextDeadline(ctx);
    if (due === null || due > until) break;
    ctx.time = Math.max(ctx.time, due);
    const { state } = ctx;
    const settling =
      state.settlingAuctionId === null ? undefined : state.auctions.get(state.settlingAuctionId);
    const current = currentAuction(state);
    if (settling?.settleAt != null && settling.settleAt <= due) settleAuction(ctx);
    else if (current.phase === 'open' && current.locksAt <= due) lockAuction(ctx);
    else if (current.clearsAt <= due) clearAuction(ctx, true);
    else advanceWithdrawal(ctx, due);
  }
}

/**
 * A long clock jump over auctions that can hold no order (none rests, nothing settles, no payout
 * falls due) moves straight to the last of them: their ids are consumed, their events not sent.
 */
function skipIdleCycles(ctx: EngineContext, until: number): void {
  const { state, config } = ctx;
  const current = currentAuction(state);
  if (current.orders.length > 0 || state.settlingAuctionId !== null) return;
  const k = Math.floor((until - current.clearsAt) / config.cycleMs);
  if (k < MIN_CYCLES_SKIPPED) return;
  const w = nextWithdrawalDeadline(state);
  if (w !== null && w <= until) return;
  // Auction id + k is the last whose cycle ends by `until`; the loop then locks and clears it as usual.
  const next = newAuction(current.auctionId + k, current.clearsAt + (k - 1) * config.cycleMs, config);
  state.auctions.delete(current.auctionId);
  state.auctions.set(next.auctionId, next);
  state.currentAuctionId = next.auctionId;
}
