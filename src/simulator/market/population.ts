/**
 * The background market (docs/MARKET.md): a seeded population of synthetic participants placing
 * BURN and MINT orders in every auction, when it opens, through the engine's own placement
 * (placeOrder: caps, balances, self-match, limits), so their orders rest, clear, settle and reach
 * the market channel like anyone's. Deterministic: one seeded generator, drawn in a fixed order.
 */
import { VenueError } from '../engine/errors.js';
import { formatCentiBps, formatCents, parseCentiBps, parseCents } from '../engine/money.js';
import { placeOrder } from '../engine/orders.js';
import type { EngineContext, EngineState } from '../engine/state.js';
import type { Auction, OrderType, PostFillAction } from '../engine/types.js';
import { type MarketConfig, MarketConfigError } from './config.js';
import { addParticipants, type ParticipantAccount } from './entities.js';
import { SeededRandom } from './random.js';

interface Participant extends ParticipantAccount {
  kind: 'noise' | 'lp';
  /** A noise trader's one side (it never rests on both: the self-match rule). */
  side: OrderType;
  /** Its position among its kind (0-based). */
  rank: number;
}

/** What the population has done so far (`GET /_sim/state` -> `market`). */
export interface MarketStats {
  /** Orders the venue accepted from participants. */
  placed: number;
  /** Orders it refused, by error code (137001 a balance ran out, 137008 the per-auction cap, ...). */
  refused: Record<string, number>;
}

/** `GET /_sim/state` -> `market`: the participants and what they did. */
export interface MarketSummary extends MarketStats {
  /** How many participants there are. */
  participants: number;
}

/** The population's changing state: all a snapshot needs to carry on exactly. */
export interface PopulationState {
  random: number;
  burstLeft: number;
  oneSidedLeft: number;
  oneSidedSide: OrderType;
  stats: MarketStats;
}

/** The hex of "market": the last group of every participant order id. */
const ID_TAIL = '6d61726b6574';
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** Order id k of participant `number` in an auction: unique by construction, shaped as UUID v4. */
export function participantOrderId(auctionId: number, number: number, k: number): string {
  return `${hex(auctionId >>> 0, 8)}-${hex((number >>> 12) & 0xffff, 4)}-4${hex(number & 0xfff, 3)}-a${hex(k & 0xfff, 3)}-${ID_TAIL}`;
}

const cents = (usd: string) => parseCents(usd) as number;
const centi = (bps: string) => parseCentiBps(bps) as number;

/** Per entity, its roll orders alive: resting in `auction`, or settling with a remainder to roll. */
function rollsAlive(state: EngineState, auction: Auction): Map<string, number> {
  const out = new Map<string, number>();
  const settling = state.settlingAuctionId === null ? undefined : state.auctions.get(state.settlingAuctionId);
  for (const o of [...auction.orders, ...(settling?.orders ?? [])]) {
    if (o.postFillAction !== 'roll') continue;
    if (o.status === 'pending' || (o.status === 'settling' && o.filledCents < o.amountCents))
      out.set(o.entityId, (out.get(o.entityId) ?? 0) + 1);
  }
  return out;
}

export class MarketPopulation {
  private readonly random: SeededRandom;
  private participants: Participant[] = [];
  private burstLeft = 0;
  private oneSidedLeft = 0;
  private oneSidedSide: OrderType = 'BURN';
  private stats: MarketStats = { placed: 0, refused: {} };

  /** `configFor(auctionId)`: the configuration in force (a scenario changes it by auction number). */
  constructor(
    private readonly configFor: (auctionId: number) => MarketConfig,
    seed: number,
    /** Participants to create: at least each kind's largest count over the run. */
    private readonly sizes: { noise: number; lp: number; balance: string },
  ) {
    // A seed of its own, apart from the fault draws': adding a market changes no fault outcome.
    this.random = new SeededRandom((seed ^ 0x6d61726b) >>> 0);
  }

  /** Adds the participants' entities to a fresh state. */
  seed(state: EngineState): void {
    const { noise, lp, balance } = this.sizes;
    const balanceCents = cents(balance);
    // Wallet, venue-only balance and bank for each: the totals must stay exact integers.
    if (balanceCents * 3 * (noise + lp) > Number.MAX_SAFE_INTEGER / 4)
      throw new MarketConfigError(
        'market.balance times the number of participants is too large to count in cents',
      );
    const people = [
      ...Array.from({ length: noise }, (_, i) => ({
        name: `noise-${hex(i + 1, 4)}`,
        fundingSide: (i % 2 === 0 ? 'BURN' : 'MINT') as OrderType,
      })),
      ...Array.from({ length: lp }, (_, i) => ({
        name: `lp-${hex(i + 1, 2)}`,
        fundingSide: 'BURN' as OrderType,
      })),
    ];
    const accounts = addParticipants(state, people, balanceCents);
    this.participants = accounts.map((a, i) => ({
      ...a,
      kind: i < noise ? 'noise' : 'lp',
      side: people[i]?.fundingSide ?? 'BURN',
      rank: i < noise ? i : i - noise,
    }));
  }

  /** Places the participants' orders in an auction that just opened. */
  onOpened(ctx: EngineContext, auction: Auction): void {
    const config = this.configFor(auction.auctionId);
    const r = this.random;
    if (this.burstLeft === 0 && r.next() < config.bursts.chance)
      this.burstLeft = config.bursts.lengthAuctions;
    const burst = this.burstLeft > 0;
    if (burst) this.burstLeft--;
    if (this.oneSidedLeft === 0 && r.next() < config.oneSided.chance) {
      this.oneSidedLeft = config.oneSided.lengthAuctions;
      const side = config.oneSided.side;
      this.oneSidedSide = side === 'random' ? (r.next() < 0.5 ? 'BURN' : 'MINT') : side;
    }
    const oneSided = this.oneSidedLeft > 0;
    if (oneSided) this.oneSidedLeft--;
    const ref = config.liquidity.referenceFeeBps ?? formatCentiBps(ctx.config.referenceFeeCentiBps);
    const rolling = rollsAlive(ctx.state, auction);
    for (const p of this.participants) {
      if (p.kind === 'noise') {
        if (p.rank >= config.noise.count || (oneSided && p.side !== this.oneSidedSide)) continue;
        this.noise(ctx, auction, p, config.noise, burst ? Math.max(1, config.bursts.factor) : 1, rolling);
      } else if (p.rank < config.liquidity.count) {
        this.quote(ctx, auction, p, config.liquidity, centi(ref));
      }
    }
  }

  private noise(
    ctx: EngineContext,
    auction: Auction,
    p: Participant,
    c: MarketConfig['noise'],
    factor: number,
    rolling: Map<string, number>,
  ): void {
    const r = this.random;
    if (r.next() >= c.activity) return;
    const orders = r.int(c.ordersPerAuction.min, c.ordersPerAuction.max) * factor;
    const center = centi(c.fee.centerBps);
    const spread = centi(c.fee.spreadBps);
    for (let k = 0; k < orders; k++) {
      const amount = this.size(c.size);
      const market = r.next() < c.marketShare;
      const limit = Math.max(0, center + r.int(-spread, spread));
      let election = this.election(c.postFill);
      // A roll that never crosses would rest for ever: with maxResting rolls alive (resting here or
      // about to roll in from the auction settling) the trader takes `cancel`: the book stays bounded.
      if (election === 'roll') {
        const alive = rolling.get(p.entityId) ?? 0;
        if (alive >= c.maxResting) election = 'cancel';
        else rolling.set(p.entityId, alive + 1);
      }
      if (!this.place(ctx, auction, p, k, p.side, amount, market ? null : limit, election)) return;
    }
  }

  /** A liquidity provider quotes one side per auction, alternating, a half-spread off the reference. */
  private quote(
    ctx: EngineContext,
    auction: Auction,
    p: Participant,
    c: MarketConfig['liquidity'],
    ref: number,
  ): void {
    const side: OrderType = (auction.auctionId + p.rank) % 2 === 0 ? 'BURN' : 'MINT';
    const half = centi(c.halfSpreadBps);
    const limit = side === 'BURN' ? Math.max(0, ref - half) : ref + half;
    this.place(ctx, auction, p, 0, side, this.size(c.size), limit, 'cancel');
  }

  /** A multiple of 100.00 between min and max (the venue's order amounts). */
  private size(range: { min: string; max: string }): number {
    return this.random.int(cents(range.min) / 10_000, cents(range.max) / 10_000) * 10_000;
  }

  private election(w: MarketConfig['noise']['postFill']): PostFillAction {
    const x = this.random.next() * (w.cancel + w.roll + w.fallback);
    return x < w.cancel ? 'cancel' : x < w.cancel + w.roll ? 'roll' : 'fallback';
  }

  /** Through the venue's own placement; a refusal is counted and ends this participant's turn. */
  private place(
    ctx: EngineContext,
    auction: Auction,
    p: Participant,
    k: number,
    side: OrderType,
    amountCents: number,
    limit: number | null,
    postFillAction: PostFillAction,
  ): boolean {
    try {
      placeOrder(ctx, p.entityId, {
        idempotencyKey: participantOrderId(auction.auctionId, p.number, k),
        orderType: side,
        amount: { amount: formatCents(amountCents), currency: 'USD' },
        feeBps: limit === null ? null : formatCentiBps(limit),
        postFillAction,
        ...(side === 'BURN' ? { sourceWalletId: p.walletId, fiatAccountId: p.fiatAccountId } : {}),
      });
      this.stats.placed++;
      return true;
    } catch (err) {
      if (!(err instanceof VenueError)) throw err;
      this.stats.refused[err.code] = (this.stats.refused[err.code] ?? 0) + 1;
      return false;
    }
  }

  /** How many participants there are, and what they did. */
  summary(): MarketSummary {
    return {
      participants: this.participants.length,
      placed: this.stats.placed,
      refused: { ...this.stats.refused },
    };
  }

  /** The changing state (for snapshots). */
  getState(): PopulationState {
    return {
      random: this.random.word,
      burstLeft: this.burstLeft,
      oneSidedLeft: this.oneSidedLeft,
      oneSidedSide: this.oneSidedSide,
      stats: { placed: this.stats.placed, refused: { ...this.stats.refused } },
    };
  }

  setState(s: PopulationState): void {
    this.random.word = s.random;
    this.burstLeft = s.burstLeft;
    this.oneSidedLeft = s.oneSidedLeft;
    this.oneSidedSide = s.oneSidedSide;
    this.stats = { placed: s.stats.placed, refused: { ...s.stats.refused } };
  }
}

/** The population of a configuration, fresh (its generator at the seed's start). */
export function populationFor(market: MarketConfig, seed: number): MarketPopulation {
  const sizes = { noise: market.noise.count, lp: market.liquidity.count, balance: market.balance };
  return new MarketPopulation(() => market, seed, sizes);
}
