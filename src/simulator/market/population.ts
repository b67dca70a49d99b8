/**
 * The background market (docs/MARKET.md): a seeded population of synthetic participants placing
 * BURN and MINT orders in every auction, when it opens, through the engine's own placement
 * (placeOrder: caps, balances, self-match, limits), so their orders rest, clear, settle and reach
 * the market channel like anyone's. Deterministic: one seeded generator, drawn in a fixed order.
 */
import { VenueError } from '../engine/errors.js';
import type { MarketDesk } from '../engine/market-desk.js';
import { formatCentiBps, formatCents, parseCentiBps, parseCents } from '../engine/money.js';
import type { EngineSeeder } from '../engine/seeder.js';
import type { AuctionView } from '../engine/state-views.js';
import type { OrderType, PostFillAction } from '../engine/types.js';
import { type MarketConfig, MarketConfigError } from './config.js';
import { addParticipants, type ParticipantAccount } from './entities.js';
import { idMiddle, idPrefix, idTail } from '../engine/market-order-ids.js';
import { expectedOrders } from './rate.js';
import { SeededRandom } from './random.js';

interface Participant extends ParticipantAccount {
  kind: 'noise' | 'lp';
  /** A noise trader's one side (it never rests on both: the self-match rule). */
  side: OrderType;
  /** Its position among its kind (0-based). */
  rank: number;
  /** The middle of its order ids (participantOrderId), made once. */
  idMiddle: string;
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

/**
 * A participant's number in its name, decimal as docs/MARKET.md shows it (`noise-0001`, `lp-01`):
 * padded, never cut, so a count past the padding (10,000 noise traders) still names each apart.
 */
const decimal = (n: number, width: number) => String(n).padStart(width, '0');

const cents = (usd: string) => parseCents(usd) as number;
const centi = (bps: string) => parseCentiBps(bps) as number;

/** Per entity, its roll orders alive: resting in `auction`, or settling with a remainder to roll. */
function rollsAlive(auction: AuctionView, settling: AuctionView | undefined): Map<string, number> {
  const out = new Map<string, number>();
  // Both books in turn, without copying them into one array first.
  for (const orders of [auction.orders, settling?.orders ?? []])
    for (const o of orders) {
      if (o.postFillAction !== 'roll') continue;
      if (o.status === 'pending' || (o.status === 'settling' && o.filledCents < o.amountCents))
        out.set(o.entityId, (out.get(o.entityId) ?? 0) + 1);
    }
  return out;
}

/** A range of order sizes in units of 100.00 (what `size` draws between). */
interface SizeUnits {
  min: number;
  max: number;
}
const sizeUnits = (range: { min: string; max: string }): SizeUnits => ({
  min: cents(range.min) / 10_000,
  max: cents(range.max) / 10_000,
});

/** The largest number of feeBps texts kept: a configuration draws a few hundred distinct limits. */
const FEE_TEXTS_KEPT = 10_000;

/** What one auction's orders are drawn from, read from the configuration as the auction opens. */
interface AuctionTerms {
  /** The first group of the auction's order ids. */
  idPrefix: string;
  /** The noise traders' fee center and spread, centi-bps. */
  center: number;
  spread: number;
  noiseSize: SizeUnits;
  /** The liquidity providers' reference fee and half-spread, centi-bps. */
  ref: number;
  half: number;
  quoteSize: SizeUnits;
}

export class MarketPopulation {
  private readonly random: SeededRandom;
  private participants: Participant[] = [];
  private burstLeft = 0;
  private oneSidedLeft = 0;
  private oneSidedSide: OrderType = 'BURN';
  private stats: MarketStats = { placed: 0, refused: {} };
  /** feeBps text by limit (centi-bps): each limit is formatted once, not once per order. */
  private readonly feeTexts = new Map<number, string>();

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
  seed(seeder: EngineSeeder): void {
    const { noise, lp, balance } = this.sizes;
    const balanceCents = cents(balance);
    // Wallet, venue-only balance and bank for each: the totals must stay exact integers.
    if (balanceCents * 3 * (noise + lp) > Number.MAX_SAFE_INTEGER / 4)
      throw new MarketConfigError(
        'market.balance times the number of participants is too large to count in cents',
      );
    const people = [
      ...Array.from({ length: noise }, (_, i) => ({
        name: `noise-${decimal(i + 1, 4)}`,
        fundingSide: (i % 2 === 0 ? 'BURN' : 'MINT') as OrderType,
      })),
      ...Array.from({ length: lp }, (_, i) => ({
        name: `lp-${decimal(i + 1, 2)}`,
        fundingSide: 'BURN' as OrderType,
      })),
    ];
    const accounts = addParticipants(seeder, people, balanceCents);
    this.participants = accounts.map((a, i) => ({
      ...a,
      kind: i < noise ? 'noise' : 'lp',
      side: people[i]?.fundingSide ?? 'BURN',
      rank: i < noise ? i : i - noise,
      idMiddle: idMiddle(a.number),
    }));
  }

  /** Places the participants' orders in an auction that just opened. */
  onOpened(desk: MarketDesk, auction: AuctionView): void {
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
    const ref = config.liquidity.referenceFeeBps ?? formatCentiBps(desk.config.referenceFeeCentiBps);
    const rolling = rollsAlive(auction, desk.settling());
    // The configuration's decimals read once per auction, not once per participant or order.
    const at: AuctionTerms = {
      idPrefix: idPrefix(auction.auctionId),
      center: centi(config.noise.fee.centerBps),
      spread: centi(config.noise.fee.spreadBps),
      noiseSize: sizeUnits(config.noise.size),
      ref: centi(ref),
      half: centi(config.liquidity.halfSpreadBps),
      quoteSize: sizeUnits(config.liquidity.size),
    };
    for (const p of this.participants) {
      if (p.kind === 'noise') {
        if (p.rank >= config.noise.count || (oneSided && p.side !== this.oneSidedSide)) continue;
        this.noise(desk, at, p, config.noise, burst ? Math.max(1, config.bursts.factor) : 1, rolling);
      } else if (p.rank < config.liquidity.count) {
        this.quote(desk, auction, at, p);
      }
    }
  }

  private noise(
    desk: MarketDesk,
    at: AuctionTerms,
    p: Participant,
    c: MarketConfig['noise'],
    factor: number,
    rolling: Map<string, number>,
  ): void {
    const r = this.random;
    if (r.next() >= c.activity) return;
    const orders = r.int(c.ordersPerAuction.min, c.ordersPerAuction.max) * factor;
    const { center, spread } = at;
    for (let k = 0; k < orders; k++) {
      const amount = this.size(at.noiseSize);
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
      if (!this.place(desk, at, p, k, p.side, amount, market ? null : limit, election)) return;
    }
  }

  /** A liquidity provider quotes one side per auction, alternating, a half-spread off the reference. */
  private quote(desk: MarketDesk, auction: AuctionView, at: AuctionTerms, p: Participant): void {
    const side: OrderType = (auction.auctionId + p.rank) % 2 === 0 ? 'BURN' : 'MINT';
    const { ref, half } = at;
    const limit = side === 'BURN' ? Math.max(0, ref - half) : ref + half;
    this.place(desk, at, p, 0, side, this.size(at.quoteSize), limit, 'cancel');
  }

  /** A multiple of 100.00 between min and max (the venue's order amounts). */
  private size(range: SizeUnits): number {
    return this.random.int(range.min, range.max) * 10_000;
  }

  private election(w: MarketConfig['noise']['postFill']): PostFillAction {
    const x = this.random.next() * (w.cancel + w.roll + w.fallback);
    return x < w.cancel ? 'cancel' : x < w.cancel + w.roll ? 'roll' : 'fallback';
  }

  /**
   * Through the venue's own rules (the desk's placeParsed: eligibility, idempotency, limit, cap,
   * wallet, self-match, balance), in integers: what placeOrder would read from the texts of these
   * integers (eligibility first, then the amount, currency and fee, which such texts always pass).
   * A refusal is counted and ends this participant's turn.
   */
  private place(
    desk: MarketDesk,
    at: AuctionTerms,
    p: Participant,
    k: number,
    side: OrderType,
    amountCents: number,
    limit: number | null,
    postFillAction: PostFillAction,
  ): boolean {
    const idempotencyKey = at.idPrefix + p.idMiddle + idTail(k);
    const burn = side === 'BURN';
    try {
      // Beyond exact integers the texts would not read back as these integers (the configuration's
      // bounds keep every draw far inside): such an order goes through the texts, as it always did.
      if (
        !Number.isSafeInteger(amountCents) ||
        (limit !== null && !(Number.isSafeInteger(limit) && limit >= 0))
      )
        desk.place(p.entityId, {
          idempotencyKey,
          orderType: side,
          amount: { amount: formatCents(amountCents), currency: 'USD' },
          feeBps: limit === null ? null : formatCentiBps(limit),
          postFillAction,
          ...(burn ? { sourceWalletId: p.walletId, fiatAccountId: p.fiatAccountId } : {}),
        });
      else {
        desk.placeParsed(p.entityId, {
          idempotencyKey,
          orderType: side,
          amountCents,
          feeBps: limit === null ? null : this.feeText(limit),
          limitCentiBps: limit,
          postFillAction,
          sourceWalletId: burn ? p.walletId : null,
          fiatAccountId: burn ? p.fiatAccountId : null,
        });
      }
      this.stats.placed++;
      return true;
    } catch (err) {
      if (!(err instanceof VenueError)) throw err;
      this.stats.refused[err.code] = (this.stats.refused[err.code] ?? 0) + 1;
      return false;
    }
  }

  /** formatCentiBps(limit), kept for the next order at the same limit. */
  private feeText(limit: number): string {
    let text = this.feeTexts.get(limit);
    if (text === undefined) {
      text = formatCentiBps(limit);
      if (this.feeTexts.size < FEE_TEXTS_KEPT) this.feeTexts.set(limit, text);
    }
    return text;
  }

  /** About how many orders `auctions` auctions from `fromAuctionId` on add (rate.ts; a clock jump's check). */
  expectedOrders(fromAuctionId: number, auctions: number, capPerEntity: number, ceiling?: number): number {
    return expectedOrders(this.configFor, fromAuctionId, auctions, capPerEntity, ceiling);
  }

  /** How many participants there are, and what they did. */
  summary(): MarketSummary {
    return {
      participants: this.participants.length,
      placed: this.stats.placed,
      refused: { ...this.stats.refused },
    };
  }

  /** The participants' accounts (a restored state must hold each). */
  accounts(): readonly ParticipantAccount[] {
    return this.participants;
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
