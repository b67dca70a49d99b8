/**
 * How many orders a background market adds to memory per auction, from its configuration: what a
 * simulator without a store checks a clock jump against before it runs (clock-jump.ts). An
 * estimate on the high side, never a draw: it reads no generator, so asking changes no run.
 */
import type { MarketConfig } from './config.js';

/**
 * Orders per auction: the noise traders' expected placements (bursts included, at the share of
 * auctions they last), one quote per liquidity provider, and a roll child per roll order alive
 * (at most `maxResting` per noise trader, each rolling once an auction). Measured with the
 * presets over 30 simulated minutes: busy 718 orders an auction (this says 750), calm 24 (48).
 */
export function ordersPerAuction(c: MarketConfig, capPerEntity: number): number {
  const { noise, bursts } = c;
  const mean = (noise.ordersPerAuction.min + noise.ordersPerAuction.max) / 2;
  const factor = Math.max(1, bursts.factor);
  // A burst starts with `chance` per auction outside one and lasts `lengthAuctions`.
  const started = bursts.chance * bursts.lengthAuctions;
  const inBurst = started / (1 + started);
  const perTrader =
    noise.activity *
    ((1 - inBurst) * Math.min(mean, capPerEntity) + inBurst * Math.min(mean * factor, capPerEntity));
  const rolls = noise.postFill.roll > 0 && noise.activity > 0 ? noise.count * noise.maxResting : 0;
  return noise.count * perTrader + c.liquidity.count + rolls;
}

/**
 * Orders over `count` auctions from `fromAuctionId` on, the configuration read per auction (a
 * scenario changes it by auction number), each one's rate worked out once. Past `ceiling` the
 * rest is extrapolated, not read (an in-process jump may name any length).
 */
export function expectedOrders(
  configFor: (auctionId: number) => MarketConfig,
  fromAuctionId: number,
  count: number,
  capPerEntity: number,
  ceiling = Number.POSITIVE_INFINITY,
): number {
  const rates = new Map<MarketConfig, number>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    const c = configFor(fromAuctionId + i);
    let rate = rates.get(c);
    if (rate === undefined) {
      rate = ordersPerAuction(c, capPerEntity);
      rates.set(c, rate);
    }
    total += rate;
    // Past the ceiling: the rest at the rate so far (the answer only has to say "too many").
    if (total > ceiling) return Math.ceil((total / (i + 1)) * count);
  }
  return Math.ceil(total);
}
