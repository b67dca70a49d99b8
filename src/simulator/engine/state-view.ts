/**
 * What `GET /_sim/state` and the WebSocket `auction.snapshot` answer, built from the engine's state
 * (engine.ts `snapshot()`, `marketSnapshot()`).
 */

import { toWireWire } from './bank-wires.js';
import { formatCents, usdMoney, type WireMoney } from './money.js';
import { iso, toWireAuction, toWireLastClear } from './rest-shapes.js';
import { currentAuction, type EngineState } from './state.js';

/** The current auction and every entity with its balances (no secrets hidden: test keys). */
// The fault set is the simulator's (faults.ts): Simulator.getState adds it as GET /_sim/faults shows it.
export function stateView(s: EngineState, time: number) {
  const { auctionId, phase, opensAt, locksAt, clearsAt } = toWireAuction(currentAuction(s));
  return {
    /** The current auction's schedule. */
    auction: {
      /** Its number. */
      auctionId,
      /** Where it is in its cycle. */
      phase,
      /** When it opened. */
      opensAt,
      /** When it locks. */
      locksAt,
      /** When it clears. */
      clearsAt,
    },
    /** The auction settling now, or null. */
    settlingAuctionId: s.settlingAuctionId,
    /** Simulated now, ISO 8601. */
    now: iso(time),
    /** Every entity with its balances (test keys: nothing hidden). */
    entities: [...s.entities.values()].map((e) => ({
      /** The entity's id. */
      entityId: e.id,
      /** Its venue account id. */
      accountId: e.accountId,
      /** Its seeded name (`burner`, `minter`, ...). */
      name: e.name,
      /** Its test API key. */
      apiKey: e.apiKey,
      /** Whether the venue accepts its orders. */
      eligible: e.eligible,
      /** Whether it has a venue account. */
      hasAccount: e.hasAccount,
      /** Its wallets. */
      wallets: e.walletIds.map((id) => {
        const w = s.wallets.get(id);
        return {
          /** The wallet id. */
          id,
          /** What the wallet holds. */
          currency: w?.currency ?? 'USD',
          /** Its balance. */
          balance: moneyIn(w?.balanceCents ?? 0, w?.currency ?? 'USD'),
          /** The part held by resting BURN orders. */
          reserved: moneyIn(w?.reservedCents ?? 0, w?.currency ?? 'USD'),
        };
      }),
      /** Its bank accounts. */
      fiatAccounts: e.fiatAccountIds.map((id) => ({
        /** The fiat account id. */
        id,
        /** Its USD balance. */
        balance: usdMoney(s.fiatAccounts.get(id)?.balanceCents ?? 0),
      })),
      /** Which side it trades. */
      fundingSide: e.fundingSide,
      /** Its venue-only balance (the mint side's prefunding). */
      venueBalance: usdMoney(e.venueBalanceCents),
      /** The part of it held by resting MINT orders. */
      venueReserved: usdMoney(e.venueReservedCents),
      /** Held by withdrawals not yet paid out. */
      withdrawalsHeld: usdMoney(e.withdrawalHeldCents),
    })),
    /** The venue's own ledger. */
    house: {
      /** USD the venue holds. */
      usd: usdMoney(s.house.usdCents),
      /** Stablecoin the venue holds. */
      stablecoin: usdMoney(s.house.stablecoinCents),
    },
    /** The stablecoin issuer's ledger. */
    issuer: {
      /** USD the issuer holds. */
      usd: usdMoney(s.issuer.usdCents),
      /** Stablecoin the issuer holds (a wire issues venue-only stablecoin out of it). */
      stablecoin: usdMoney(s.issuer.stablecoinCents),
    },
    /** Every wire landed so far. */
    wires: s.wires.map(toWireWire),
    /** Remainders routed to the standard minting product. */
    fallbacks: s.fallbacks.map((o) => ({
      /** The order whose remainder it is. */
      orderId: o.orderId,
      /** Its entity. */
      entityId: o.entityId,
      /** The auction it was in. */
      auctionId: o.auctionId,
      /** `BURN` or `MINT`. */
      orderType: o.orderType,
      /** The unfilled amount routed. */
      amount: usdMoney(o.amountCents - o.filledCents),
      /** When it was routed. */
      routedAt: iso(o.updatedAt),
    })),
  };
}

/** The current auction, the one settling (if any) and `lastClear`, the last clear's outcome. */
export function marketView(s: EngineState) {
  const settling = s.settlingAuctionId === null ? undefined : s.auctions.get(s.settlingAuctionId);
  const last = s.lastClearedAuctionId === null ? undefined : s.auctions.get(s.lastClearedAuctionId);
  return {
    /** The auction open (or locked) now. */
    auction: toWireAuction(currentAuction(s)),
    /** The auction that cleared and has not settled yet, if any. */
    settling: settling ? toWireAuction(settling) : null,
    /** The outcome of the last clear; null before the first. */
    lastClear: toWireLastClear(last),
  };
}

function moneyIn(cents: number, currency: string): WireMoney {
  return { amount: formatCents(cents), currency };
}
