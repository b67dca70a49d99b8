/**
 * The mirror part of the stream chaos (issue 17): an AccountMirror for the burner and one for the
 * minter (the mint side is the one with withdrawals), each on its own stream through the fault
 * proxy, so the same socket kills and forced resyncs hit them. At quiet points the driver stops
 * changing anything and the mirrors must equal the venue field by field: every order (the mirrors
 * start before the first one is placed, so every order of the run is in view until its retention
 * window passes), the summary, and the withdrawals. "Caught up" is a bounded wait for equality,
 * then equality again after a short stable window during which the kills go on (a late replay or
 * a resync must not move the view off the venue's state).
 */
import { Decimal } from 'decimal.js';
import type { MatchVenue } from '../../src/index.js';
import type { AccountSummary, Order, Withdrawal } from '../../src/generated/models.js';
import type { VenueStream } from '../../src/stream/index.js';
import { ChangeWatch, type MirrorChangeStats } from './mirror-changes.js';
import { compareOrders, compareSummary, compareWithdrawals } from './mirror-compare.js';
import { addTruth, countOutOfOrder, isOrderLike, type Truth } from './stream-verdict.js';
import { type Sources, seededRandom, seededUuid, sleep } from './support.js';

type Simulator = ReturnType<Sources['simulator']['createSimulator']>;
type Name = 'burner' | 'minter';

export interface MirrorCheckOptions {
  /** Bound on the wait for the mirrors to equal the venue at a quiet point, ms. Default 5,000. */
  settleBoundMs?: number;
  /** How long they must then stay equal, kills going on, ms. Default 200. */
  stableMs?: number;
}

export interface MirrorSideReport extends MirrorChangeStats {
  /** Order changes handed out after a later state of the same order (against the simulator's events). */
  outOfOrder: number;
  reconnects: number;
  resyncs: number;
}

export interface MirrorChaosReport {
  /** False when the source tree has no `account.mirror` (a tree before issue 17): nothing ran. */
  available: boolean;
  quietPoints: number;
  /** Quiet points where both mirrors equalled the venue within the bound, and stayed equal. */
  matched: number;
  mismatches: number;
  /** From the pause to equality, over the matched quiet points. */
  catchUpMs: { median: number; max: number };
  ordersCompared: number;
  withdrawalsCreated: number;
  withdrawalsCompared: number;
  /** Withdrawals behind the venue but marked stale (documented: no GET can re-read one). */
  staleWithdrawalsBehind: number;
  burner: MirrorSideReport;
  minter: MirrorSideReport;
  /** A few differences and change-feed faults, with their quiet point. */
  examples: string[];
}

interface Side {
  name: Name;
  entityId: string;
  /** Reads the venue's truth in-process (the handler), never through the proxy. */
  direct: MatchVenue;
  /** The client the mirror belongs to (its withdrawals go through it, so the mirror knows them). */
  client: MatchVenue;
  stream: VenueStream;
  mirror: ReturnType<MatchVenue['account']['mirror']>;
  changes: ChangeWatch;
  truth: Truth;
  lastBalanceTo: string | undefined;
}

interface VenueView {
  orders: Order[];
  summary: AccountSummary;
  withdrawals: Withdrawal[];
}

const iso = (ms: number) => new Date(ms).toISOString();

export class MirrorWatch {
  readonly #sides: Side[];
  readonly #sim: Simulator;
  readonly #off: () => void;
  readonly #keys: () => number;
  readonly #bound: number;
  readonly #stable: number;
  readonly #catchUps: number[] = [];
  readonly #examples: string[] = [];
  #quietPoints = 0;
  #mismatches = 0;
  #ordersCompared = 0;
  #withdrawalsCompared = 0;
  #withdrawalsCreated = 0;
  #staleBehind = 0;

  private constructor(sim: Simulator, sides: Side[], seed: number, options: MirrorCheckOptions) {
    this.#sim = sim;
    this.#sides = sides;
    this.#keys = seededRandom(seed ^ 0x3a1a);
    this.#bound = options.settleBoundMs ?? 5_000;
    this.#stable = options.stableMs ?? 200;
    const byEntity = new Map(sides.map((s) => [s.entityId, s]));
    // The truth of both accounts: every order state, and the last balance.updated's window end.
    this.#off = sim.onEvent((e) => {
      const side = e.channel === 'account' ? byEntity.get(e.entityId ?? '') : undefined;
      if (!side) return;
      const data = e.data as unknown;
      if ((e.event === 'order.accepted' || e.event === 'order.updated') && isOrderLike(data))
        addTruth(side.truth, data, 0);
      else if (e.event === 'balance.updated') side.lastBalanceTo = (data as AccountSummary).activity.to;
    });
  }

  /**
   * Opens both mirrors and waits until they are ready; null when the source tree has none.
   * `client(name)` is a client whose socket goes through the fault proxy; `direct(name)` one that
   * calls the simulator's handler.
   */
  static async start(
    sim: Simulator,
    client: (name: Name) => MatchVenue,
    direct: (name: Name) => MatchVenue,
    ids: Record<Name, string>,
    seed: number,
    options: MirrorCheckOptions = {},
  ): Promise<MirrorWatch | null> {
    const sides: Side[] = [];
    for (const name of ['burner', 'minter'] as const) {
      const venue = client(name);
      if (typeof venue.account.mirror !== 'function') return null;
      // Its own stream (killed like every socket through the proxy), so its stats can be read.
      const stream = venue.stream.connect({
        reconnect: { initialDelayMs: 50, maxDelayMs: 500 },
        random: seededRandom(seed ^ (name === 'burner' ? 0x6d31 : 0x6d32)),
      });
      const mirror = venue.account.mirror({ stream });
      sides.push({
        name,
        entityId: ids[name],
        direct: direct(name),
        client: venue,
        stream,
        mirror,
        changes: new ChangeWatch(name, mirror),
        truth: new Map(),
        lastBalanceTo: undefined,
      });
    }
    const watch = new MirrorWatch(sim, sides, seed, options);
    try {
      await Promise.all(sides.map((s) => s.mirror.ready));
    } catch (error) {
      await watch.close();
      throw error;
    }
    return watch;
  }

  /** A 1.00 USD withdrawal by the minter, through its mirror's client (so the mirror knows it). */
  async withdraw(fiatAccountId: string): Promise<void> {
    const minter = this.#sides.find((s) => s.name === 'minter') as Side;
    await minter.client.withdrawals.create({
      idempotencyKey: seededUuid(this.#keys),
      amount: { amount: '1.00', currency: 'USD' },
      fiatAccountId,
    });
    this.#withdrawalsCreated++;
  }

  /** The venue's side of one account: every order over REST, the summary, its withdrawals. */
  async #read(side: Side): Promise<VenueView> {
    const orders: Order[] = [];
    for await (const order of side.direct.orders.list({ pageSize: 100 })) orders.push(order);
    const summary = await side.direct.account.retrieve();
    // No GET for a withdrawal: the simulator's record, shaped as the create answer and its events.
    const withdrawals: Withdrawal[] = [];
    for (const w of this.#sim.state.withdrawals.values()) {
      if (w.entityId !== side.entityId) continue;
      withdrawals.push({
        id: w.id,
        status: w.status,
        amount: { amount: new Decimal(w.amountCents).div(100).toFixed(2), currency: 'USD' },
        fiatAccountId: w.fiatAccountId,
        createdAt: iso(w.createdAt),
        updatedAt: iso(w.updatedAt),
      });
    }
    return { orders, summary, withdrawals };
  }

  /** What differs between the mirrors and the venue now; counts what was compared when `tally`. */
  #compare(views: readonly VenueView[], tally: boolean): string[] {
    const out: string[] = [];
    for (const [i, side] of this.#sides.entries()) {
      const venue = views[i] as VenueView;
      const { mirror, changes, name } = side;
      out.push(...compareOrders(name, mirror.orders(), venue.orders, changes.retired));
      out.push(...compareSummary(name, mirror.summary, venue.summary, side.lastBalanceTo));
      const w = compareWithdrawals(name, mirror.withdrawals(), venue.withdrawals, changes.retired);
      out.push(...w.differences);
      if (tally) {
        this.#ordersCompared += venue.orders.length;
        this.#withdrawalsCompared += w.compared;
        this.#staleBehind += w.staleBehind;
      }
    }
    return out;
  }

  /**
   * Call with the changes paused: waits (bounded) until both mirrors equal the venue, then checks
   * they still do after the stable window. A quiet point that never gets there is a mismatch.
   */
  async quietPoint(): Promise<void> {
    const started = performance.now();
    const n = ++this.#quietPoints;
    const views = await Promise.all(this.#sides.map((s) => this.#read(s)));
    let diff: string[] = [];
    while (true) {
      diff = this.#compare(views, false);
      if (diff.length === 0) {
        const equalAt = performance.now();
        await sleep(this.#stable);
        diff = this.#compare(views, true);
        if (diff.length === 0) {
          this.#catchUps.push(Math.round(equalAt - started));
          return;
        }
      }
      if (performance.now() - started > this.#bound) break;
      await sleep(10);
    }
    this.#mismatches++;
    for (const d of diff.slice(0, 3)) if (this.#examples.length < 8) this.#examples.push(`#${n} ${d}`);
  }

  /** Closes the mirrors and their streams; the report. */
  async finish(): Promise<MirrorChaosReport> {
    const stats = this.#sides.map((s) => ({ ...s.stream.stats() }));
    await this.close();
    const side = (i: number): MirrorSideReport => {
      const s = this.#sides[i] as Side;
      const st = stats[i] as { reconnects: number; resyncs: number };
      return {
        ...s.changes.stats,
        outOfOrder: countOutOfOrder(s.truth, s.changes.deliveryOrder),
        reconnects: st.reconnects,
        resyncs: st.resyncs,
      };
    };
    const sorted = [...this.#catchUps].sort((a, b) => a - b);
    return {
      available: true,
      quietPoints: this.#quietPoints,
      matched: this.#quietPoints - this.#mismatches,
      mismatches: this.#mismatches,
      catchUpMs: { median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 },
      ordersCompared: this.#ordersCompared,
      withdrawalsCreated: this.#withdrawalsCreated,
      withdrawalsCompared: this.#withdrawalsCompared,
      staleWithdrawalsBehind: this.#staleBehind,
      burner: side(0),
      minter: side(1),
      examples: [...this.#examples, ...this.#sides.flatMap((s) => s.changes.examples)].slice(0, 10),
    };
  }

  /** Stops the change readers, the mirrors and their streams (idempotent). */
  async close(): Promise<void> {
    this.#off();
    for (const s of this.#sides) {
      await s.changes.stop();
      await s.mirror.close();
      await s.stream.close();
    }
  }
}

/** The report of a run whose source tree has no mirror. */
export function mirrorUnavailable(): MirrorChaosReport {
  const none: MirrorSideReport = {
    changes: 0,
    seqGaps: 0,
    duplicates: 0,
    noops: 0,
    wentBack: 0,
    outOfOrder: 0,
    reconnects: 0,
    resyncs: 0,
  };
  return {
    available: false,
    quietPoints: 0,
    matched: 0,
    mismatches: 0,
    catchUpMs: { median: 0, max: 0 },
    ordersCompared: 0,
    withdrawalsCreated: 0,
    withdrawalsCompared: 0,
    staleWithdrawalsBehind: 0,
    burner: none,
    minter: none,
    examples: [],
  };
}
