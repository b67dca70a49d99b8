import { currencyTotals } from './state.js';
import type { EngineStateView } from './state-views.js';

/**
 * The books must always balance. Returns every violation found (empty when sound):
 * money conserved per currency across all accounts (participants' wallets and venue-only balances,
 * fiat accounts, house, issuer); the house's and the issuer's ledgers equal to what the records
 * explain (settled fills with their fees and rebates, fallbacks, wires, completed withdrawals);
 * reservations equal to what resting/settling orders and in-flight withdrawals hold;
 * no negative participant or house balance; each auction's BURN fills = MINT fills = matched volume;
 * fills and roll lineage consistent; no entity resting on both sides of one auction.
 */
export function checkInvariants(
  target: EngineStateView | { readonly state: EngineStateView },
  /**
   * `records: false` leaves out what only the whole history explains (the house's and the
   * issuer's ledgers from settled fills, each auction's fills, roll lineage): a state a store has
   * evicted final orders from (a restored checkpoint or snapshot) no longer holds all of it.
   */
  options: { records?: boolean } = {},
): string[] {
  const records = options.records ?? true;
  const state = 'state' in target ? target.state : target;
  const v: string[] = [];
  const totals = currencyTotals(state);
  const init = state.initialTotals;
  if (totals.usdCents !== init.usdCents) v.push(`USD not conserved: ${totals.usdCents} != ${init.usdCents}`);
  if (totals.stablecoinCents !== init.stablecoinCents)
    v.push(`stablecoin not conserved: ${totals.stablecoinCents} != ${init.stablecoinCents}`);
  if (totals.eurCents !== init.eurCents) v.push(`EUR not conserved: ${totals.eurCents} != ${init.eurCents}`);

  for (const a of records ? state.auctions.values() : []) {
    if (a.clearedAt === null) continue;
    let burn = 0;
    let mint = 0;
    for (const o of a.orders) {
      if (o.clearedIn === null) continue;
      if (o.orderType === 'BURN') burn += o.filledCents;
      else mint += o.filledCents;
    }
    if (burn !== a.matchedCents || mint !== a.matchedCents)
      v.push(`auction ${a.auctionId}: BURN filled ${burn}, MINT filled ${mint}, matched ${a.matchedCents}`);
  }

  const pendingCount = new Map<string, { BURN: number; MINT: number }>();
  for (const o of state.orders.values()) {
    if (o.status !== 'pending') continue;
    const c = pendingCount.get(o.entityId) ?? { BURN: 0, MINT: 0 };
    c[o.orderType]++;
    pendingCount.set(o.entityId, c);
  }
  // 137006's rule holds for the book itself, roll children included: no entity rests on both sides.
  const sides = new Map<string, Set<string>>();
  for (const o of state.orders.values()) {
    if (o.status !== 'pending') continue;
    const k = `${o.auctionId}:${o.entityId}`;
    const set = sides.get(k) ?? new Set<string>();
    set.add(o.orderType);
    sides.set(k, set);
  }
  for (const [k, set] of sides)
    if (set.size > 1) v.push(`auction:entity ${k} rests on both sides (self-match)`);
  for (const [entityId, e] of state.exposure) {
    const c = pendingCount.get(entityId) ?? { BURN: 0, MINT: 0 };
    if (c.BURN !== e.BURN || c.MINT !== e.MINT) v.push(`entity ${entityId} exposure counters off`);
  }

  const walletHeld = new Map<string, number>();
  const venueHeld = new Map<string, number>();
  // What settlement moved through the house, from the orders: BURN F (fee f) brings F stablecoin
  // and pays F - f USD; MINT F (rebate r) brings F USD from the issuer and pays F + r stablecoin.
  let houseUsd = 0;
  let houseStable = 0;
  let issuerUsd = 0;
  for (const o of state.orders.values()) {
    if (o.clearedIn !== null && o.status !== 'settling' && o.status !== 'failed') {
      const F = o.filledCents;
      if (o.orderType === 'BURN') {
        houseStable += F;
        houseUsd -= F - o.feeCents;
      } else {
        houseUsd += F;
        houseStable -= F + o.feeCents;
        issuerUsd -= F;
      }
    }
    if (o.filledCents < 0 || o.filledCents > o.amountCents)
      v.push(`order ${o.orderId} filled ${o.filledCents} of ${o.amountCents}`);
    if (o.clearedIn !== null && o.clearedIn.auctionId !== o.auctionId)
      v.push(`order ${o.orderId} cleared by another auction`);
    if (records && o.childOrderId !== null && state.orders.get(o.childOrderId)?.parentOrderId !== o.orderId)
      v.push(`order ${o.orderId} lineage: child does not point back`);
    if (records && o.parentOrderId !== null && state.orders.get(o.parentOrderId)?.childOrderId !== o.orderId)
      v.push(`order ${o.orderId} lineage: parent does not point forward`);
    if (o.status !== 'pending' && o.status !== 'settling') continue;
    if (o.orderType === 'BURN' && o.sourceWalletId)
      walletHeld.set(o.sourceWalletId, (walletHeld.get(o.sourceWalletId) ?? 0) + o.amountCents);
    if (o.orderType === 'MINT') venueHeld.set(o.entityId, (venueHeld.get(o.entityId) ?? 0) + o.amountCents);
  }
  // Fallbacks: a BURN remainder redeemed at the issuer (its USD out), a MINT one converted (no USD).
  for (const o of state.fallbacks) if (o.orderType === 'BURN') issuerUsd -= o.amountCents - o.filledCents;
  for (const w of state.wires) issuerUsd += w.amountCents;
  for (const w of state.withdrawals.values()) if (w.status === 'completed') issuerUsd -= w.amountCents;
  const seeded = state.seededLedgers;
  const moved = (now: number, then: number, explained: number, what: string, by: string) => {
    if (records && now - then !== explained)
      v.push(`${what} moved ${now - then}, ${by} explain ${explained}`);
  };
  moved(state.house.usdCents, seeded.house.usdCents, houseUsd, 'house USD', 'settled fills');
  moved(
    state.house.stablecoinCents,
    seeded.house.stablecoinCents,
    houseStable,
    'house stablecoin',
    'settled fills',
  );
  // The issuer's moves are symmetric (it issues or retires stablecoin for as much USD).
  moved(
    state.issuer.usdCents,
    seeded.issuer.usdCents,
    issuerUsd,
    'issuer USD',
    'wires, fills, fallbacks and withdrawals',
  );
  if (
    state.issuer.usdCents + state.issuer.stablecoinCents !==
    seeded.issuer.usdCents + seeded.issuer.stablecoinCents
  )
    v.push('issuer USD and stablecoin moved unevenly');
  for (const w of state.wallets.values()) {
    if (w.reservedCents !== (walletHeld.get(w.id) ?? 0))
      v.push(
        `wallet ${w.id} reserved ${w.reservedCents} != resting BURN orders ${walletHeld.get(w.id) ?? 0}`,
      );
    if (w.balanceCents < 0) v.push(`wallet ${w.id} negative`);
    if (w.reservedCents > w.balanceCents) v.push(`wallet ${w.id} reserved above balance`);
  }
  const withdrawalHeld = new Map<string, number>();
  for (const id of state.activeWithdrawals) {
    const w = state.withdrawals.get(id);
    if (w) withdrawalHeld.set(w.entityId, (withdrawalHeld.get(w.entityId) ?? 0) + w.amountCents);
  }
  for (const e of state.entities.values()) {
    if (e.venueReservedCents !== (venueHeld.get(e.id) ?? 0))
      v.push(
        `entity ${e.name} venue-only reserved ${e.venueReservedCents} != resting MINT orders ${venueHeld.get(e.id) ?? 0}`,
      );
    if (e.withdrawalHeldCents !== (withdrawalHeld.get(e.id) ?? 0))
      v.push(`entity ${e.name} withdrawal hold != withdrawals in flight`);
    if (e.venueReservedCents < 0 || e.withdrawalHeldCents < 0)
      v.push(`entity ${e.name} negative venue-only reservation`);
    if (e.venueBalanceCents < 0 || e.venueReservedCents + e.withdrawalHeldCents > e.venueBalanceCents)
      v.push(`entity ${e.name} venue-only balance negative or over-reserved`);
  }
  for (const f of state.fiatAccounts.values())
    if (f.balanceCents < 0) v.push(`fiat account ${f.id} negative`);
  if (state.house.usdCents < 0 || state.house.stablecoinCents < 0) v.push('house account negative');
  return v;
}
