import { BookColumns, clearAuction, lockAuction, settleAuction } from './cycle.js';
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

/**
 * Runs every transition due at or before `until`, each at its own scheduled instant. A long jump
 * costs what the book needs, not one cycle per elapsed auction: auctions that can hold no order
 * are skipped, and an auction in which nothing can trade is held open across the cycles in which
 * nothing could trade either (docs/PROTOCOL.md, Auction cycle).
 */
export function advanceTo(ctx: EngineContext, until: number): void {
  for (;;) {
    skipIdleCycles(ctx, until);
    holdDormantAuction(ctx, until);
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
  // A background population places in every auction: none can be skipped without changing the run.
  if (ctx.opened || current.orders.length > 0 || state.settlingAuctionId !== null) return;
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

/**
 * A clock jump over auctions in which nothing can trade. When every order resting in the open
 * auction rolls, and together with the roll remainders of the auction settling (if one is) they
 * match nothing, then — nothing being placed during a jump — each of the following auctions would
 * hold that same book (the roll children: same amounts, same limits) and clear it unmatched again:
 * k cycles would make k generations of children and change nothing else. Instead the auction stays
 * open across those cycles and clears once, at the end of the last one, where the full run would
 * clear its k-th successor; the next auction's id counts the cycles held (`cyclesHeld`). Cost: one
 * clearing of the book, whatever k. The settling auction settles at its own time (its remainders
 * roll into the held auction), payouts falling due meanwhile run at theirs (they do not touch the
 * book), and settlement faults apply to the settlements that happen.
 */
function holdDormantAuction(ctx: EngineContext, until: number): void {
  const { state, config } = ctx;
  const current = currentAuction(state);
  if (ctx.opened || current.phase !== 'open') return;
  const k = Math.floor((until - current.clearsAt) / config.cycleMs);
  if (k < MIN_CYCLES_SKIPPED) return;
  for (const o of current.orders) {
    // A cancel or fallback election ends at this auction's clear: that one runs as usual.
    if (o.status === 'pending' && o.postFillAction !== 'roll') return;
  }
  // What the settling auction will roll in (a failed or self-match-dropped roll only takes away,
  // and a smaller book matches no more). It must settle before this auction's own clear, as in a
  // full run: one left settling on demand (`settle: false`) would otherwise settle a jump later.
  const settling = state.settlingAuctionId === null ? undefined : state.auctions.get(state.settlingAuctionId);
  if (settling && !((settling.settleAt ?? Number.POSITIVE_INFINITY) <= current.clearsAt)) return;
  const incoming = settling?.orders ?? [];
  const book = new BookColumns(current.orders.length + incoming.length);
  for (const o of current.orders) if (o.status === 'pending') book.add(o);
  for (const o of incoming) {
    const unfilled = o.amountCents - o.filledCents;
    if (o.status === 'settling' && o.postFillAction === 'roll' && unfilled > 0) book.add(o, unfilled);
  }
  if (book.clear(config.referenceFeeCentiBps).matchedCents > 0) return;
  current.cyclesHeld += k;
  current.clearsAt += k * config.cycleMs;
  current.locksAt = current.clearsAt - config.lockMs;
}
