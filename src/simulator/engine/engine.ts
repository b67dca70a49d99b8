import { type ArchivedActivity, accountNumbers, accountSummary } from './account.js';
import { landWire, type WireInput } from './bank-wires.js';
import { advanceTo, nextDeadline } from './clock.js';
import { clearAuction, lockAuction, settleAuction, unlockAuction } from './cycle.js';
import { type AllOrdersQuery, allOrders, clearedAuctions } from './dashboard-views.js';
import type { EnginePopulation, EngineOptions, EngineSnapshot } from './engine-options.js';
import { balanceEvent } from './events.js';
import { activityBaselines, type EvictedBatch, evict } from './eviction.js';
import { SeededRandom } from './ids.js';
import { checkInvariants } from './invariants.js';
import { marketDesk } from './market-desk.js';
import type { OrderArchive } from './order-archive.js';
import {
  cancelAllOrders,
  cancelOrder,
  getOrder,
  listOrders,
  modifyOrder,
  requireEligible,
} from './orders.js';
import { type PlaceInput, placeOrder } from './placement.js';
import { clearingReport, indicativeReport } from './report.js';
import { toWireAuction } from './rest-shapes.js';
import { seedState } from './seeder.js';
import { exportEngineState, importEngineState } from './snapshot.js';
import { createState, currentAuction, type EngineContext, type EngineState, mustEntity } from './state.js';
import { marketView, stateView } from './state-view.js';
import type { AuctionView, EngineStateView } from './state-views.js';
import {
  type Auction,
  DEFAULT_ENGINE_CONFIG,
  type EngineConfig,
  type Entity,
  type JumpPart,
  type SettlementFaults,
  type SimulatorEvent,
} from './types.js';
import type { EngineOperations, RequestOf } from './venue-operations.js';
import { createWithdrawal } from './withdrawals.js';

export type { EngineOptions, EnginePopulation, EngineSnapshot } from './engine-options.js';

/**
 * The venue as a pure state machine: no I/O, no timers, time only from `now()`. Every public call
 * first runs the transitions that fell due, then acts, then reports balance changes.
 *
 * Reachable as `sim.engine` for benchmarks and invariant checks; its surface follows the engine's
 * internals and is not a stable API.
 * @hidden
 */
export class VenueEngine implements EngineOperations {
  readonly config: EngineConfig;
  /** The state: the engine alone writes it (state-views.ts); `state` reads it. */
  private live: EngineState;
  faults: SettlementFaults = {};
  private readonly now: () => number;
  private readonly rng: SeededRandom;
  private readonly random = (): number => this.rng.next();
  private readonly onEvent: (event: SimulatorEvent) => void;
  private readonly wants: (entityId?: string) => boolean;
  private time: number;
  private readonly population: EnginePopulation | undefined;
  private readonly archive: OrderArchive | undefined;
  /** Activity that left memory for the store (account.ts). */
  private readonly archived: ArchivedActivity | undefined;
  private readonly afterStep: (() => void) | undefined;
  /** Auction 1 opened with the engine: the population acts in it at the first step. */
  private firstOpenPending: boolean;

  constructor(options: EngineOptions) {
    this.config = { ...DEFAULT_ENGINE_CONFIG, ...options.config };
    if (this.config.lockMs >= this.config.cycleMs)
      throw new RangeError('lockMs must be shorter than cycleMs');
    this.now = options.now;
    this.rng = new SeededRandom(options.seed ?? 1);
    this.onEvent = options.onEvent ?? (() => {});
    const listening = options.onEvent !== undefined;
    this.wants = options.wantsEvents ?? (() => listening);
    this.time = this.now();
    this.archive = options.archive;
    this.live = createState(this.config, this.time);
    this.population = options.population;
    const archive = options.archive;
    this.archived = archive && ((entityId, at) => archive.activityBefore(entityId, at));
    this.afterStep = options.afterStep;
    const population = this.population;
    if (population) seedState(this.live, (seeder) => population.seed(seeder));
    this.firstOpenPending = this.population !== undefined;
  }

  /**
   * Takes out of memory what can leave at `cutoffMs` (final orders of auctions cleared before it,
   * settled, and the activity entries no fill can join) and answers it as one batch for a store
   * (eviction.ts). Reads over an archive go on answering for what left.
   */
  evict(cutoffMs: number): EvictedBatch {
    return evict(this.live, cutoffMs);
  }
  /** What the activity logs count before their first entries, for a store starting a history. */
  activityBaselines() {
    return activityBaselines(this.live);
  }

  private context(): EngineContext {
    return {
      state: this.live,
      config: this.config,
      faults: this.faults,
      random: this.random,
      time: this.time,
      emit: this.onEvent,
      wants: this.wants,
      dirty: new Set(),
      ...(this.population ? { opened: this.opened } : {}),
      ...(this.archive ? { archive: this.archive } : {}),
    };
  }

  private readonly opened = (ctx: EngineContext, auction: Auction): void => {
    this.population?.onOpened(marketDesk(ctx), auction);
  };

  /** The population acts in auction 1 at the engine's first step (its listeners exist by then). */
  private openFirst(ctx: EngineContext): void {
    if (!this.firstOpenPending) return;
    this.firstOpenPending = false;
    this.opened(ctx, currentAuction(ctx.state));
  }

  private step<T>(fn: (ctx: EngineContext) => T, until?: number, part?: JumpPart): T {
    const ctx = this.context();
    // The parts before: their entities first, in the order they were touched, as one step has them.
    if (part?.last) for (const entityId of part.touched) ctx.dirty.add(entityId);
    const target = Math.max(this.time, until ?? this.now());
    try {
      this.openFirst(ctx);
      advanceTo(ctx, target);
      ctx.time = target;
      return fn(ctx);
    } finally {
      this.time = ctx.time;
      if (part && !part.last) for (const entityId of ctx.dirty) part.touched.add(entityId);
      else this.reportBalances(ctx.dirty);
      this.afterStep?.();
    }
  }

  /** balance.updated for each entity a step touched, at the step's end. */
  private reportBalances(dirty: ReadonlySet<string>): void {
    for (const entityId of dirty) {
      const entity = this.live.entities.get(entityId);
      if (!entity?.hasAccount || !this.wants(entityId)) continue;
      const { activityWindowMs } = this.config;
      const numbers = accountNumbers(this.live, entityId, this.time, activityWindowMs, this.archived);
      this.onEvent(balanceEvent(entityId, numbers));
    }
  }

  /**
   * Applies every transition due up to `t` (default: the clock's now). With `part`, this is a part
   * of a longer clock jump (clock-jump.ts): the balance events wait for its last part, so that the
   * parts send exactly the events one step over the whole jump would.
   */
  advanceTo(t?: number, part?: JumpPart): void {
    this.step(() => undefined, t, part);
  }

  /** A jump's terms (clock-jump.ts): a population acts every auction (none skipped), a store evicts. */
  jumpTerms(fromAuctionId: number, auctions: number, ceiling: number) {
    const { population: p, config } = this;
    const orders = p?.expectedOrders?.(fromAuctionId, auctions, config.maxOrdersPerAuction, ceiling) ?? 0;
    return { everyAuction: p !== undefined, evicts: this.archive !== undefined, orders };
  }

  /** When the next scheduled transition is due, or null if nothing is scheduled. */
  nextDeadline(): number | null {
    return nextDeadline(this.context());
  }

  entityForApiKey(apiKey: string): Readonly<Entity> | undefined {
    return this.live.byApiKey.get(apiKey);
  }

  // Reads of the state as the last step left it (no transition runs): read-only, for the modules
  // outside engine/ (clock jumps, snapshots, invariant checks, tests), which never write it.
  /** The whole state, read-only (state-views.ts); its shape is the engine's and not a stable API. */
  get state(): EngineStateView {
    return this.live;
  }
  /** The auction open (or locked) now. */
  currentAuction(): AuctionView {
    return currentAuction(this.live);
  }
  /** How many orders are in memory (a store evicts final ones). */
  get orderCount(): number {
    return this.live.orders.size;
  }
  /** The invariant checker's violations (invariants.ts); empty when the books balance. */
  checkInvariants(options: { records?: boolean } = {}): string[] {
    return checkInvariants(this.live, options);
  }
  /**
   * The state, writable, for the store's retention (src/simulator/store/), which evicts from it
   * between steps until it runs as an engine operation, and for tests that break the books on
   * purpose. Nothing else writes the engine's state.
   * @internal
   */
  writableState(): EngineState {
    return this.live;
  }

  // The venue operations, named and typed by the contract's endpoint table (venue-operations.ts).
  /** Takes any PlaceInput (benchmarks and the population place unchecked shapes); the contract's body is one. */
  placeOrder(entityId: string, input: PlaceInput) {
    return this.step((ctx) => placeOrder(ctx, entityId, input));
  }
  cancelOrder(entityId: string, input: RequestOf<'cancelOrder'>) {
    return this.step((ctx) => cancelOrder(ctx, entityId, input.auctionId, input.orderId));
  }
  cancelAllOrders(entityId: string) {
    return this.step((ctx) => cancelAllOrders(ctx, entityId));
  }
  modifyOrder(entityId: string, input: RequestOf<'modifyOrder'>) {
    const { auctionId, orderId, feeBps } = input;
    return this.step((ctx) => modifyOrder(ctx, entityId, auctionId, orderId, feeBps ?? null));
  }
  getOrder(entityId: string, input: RequestOf<'getOrder'>) {
    return this.step((ctx) => getOrder(ctx.state, entityId, input.id, this.archive));
  }
  listOrders(entityId: string, query: RequestOf<'listOrders'>) {
    const { from, to } = query;
    const bounds = {
      from: from === undefined ? undefined : Date.parse(from),
      to: to === undefined ? undefined : Date.parse(to),
    };
    return this.step((ctx) => listOrders(ctx.state, entityId, { ...query, ...bounds }, this.archive));
  }
  getAccount(entityId: string) {
    return this.step((ctx) => {
      requireEligible(mustEntity(ctx.state, entityId));
      return accountSummary(ctx.state, entityId, ctx.time, this.config.activityWindowMs, this.archived);
    });
  }
  createWithdrawal(entityId: string, input: RequestOf<'createWithdrawal'>) {
    return this.step((ctx) => createWithdrawal(ctx, entityId, input));
  }
  /** Lands a settled USD wire on the entity's venue-only balance (`POST /_sim/wires`). */
  wire(input: WireInput) {
    return this.step((ctx) => landWire(ctx, input));
  }
  /** Ticket issuance is the HTTP layer's; the engine only says whether the entity may ask. */
  assertEligible(entityId: string): void {
    requireEligible(mustEntity(this.live, entityId));
  }

  /** Runs the current auction to its end now; with settle false it stays settling until settle(). */
  clear(options: { settle?: boolean } = {}) {
    return this.step((ctx) => {
      const settle = options.settle ?? true;
      const auction = clearAuction(ctx, false);
      if (settle) settleAuction(ctx);
      return toWireAuction(auction);
    });
  }
  /** Settles the auction that is settling now; null when none is. */
  settle() {
    return this.step((ctx) => {
      const a = settleAuction(ctx);
      return a ? toWireAuction(a) : null;
    });
  }
  setPhase(phase: 'open' | 'lock') {
    return this.step((ctx) => {
      if (phase === 'lock') lockAuction(ctx);
      else unlockAuction(ctx);
      return toWireAuction(currentAuction(ctx.state));
    });
  }

  /**
   * The data of the WebSocket `auction.snapshot`: the current auction, the one settling (if any) and
   * `lastClear`, the last clear's outcome (null before the first).
   */
  marketSnapshot() {
    return this.step((ctx) => marketView(ctx.state));
  }

  /** The clearing report of a cleared auction (`GET /_sim/auctions/{id}`); undefined when none cleared. */
  report(auctionId: number) {
    return this.step((ctx) => {
      const a = ctx.state.auctions.get(auctionId);
      if (!a || a.clearedAt === null) return undefined;
      return clearingReport(ctx.state, a, this.config.referenceFeeCentiBps);
    });
  }
  /** The open auction's indicative clear from what rests now (`GET /_sim/auctions/current`). */
  indicative() {
    return this.step((ctx) => indicativeReport(currentAuction(ctx.state), this.config.referenceFeeCentiBps));
  }

  /**
   * Everything that changes as the engine runs, as JSON (snapshot.ts); the config is the caller's.
   * `shared`: no copies, for a document serialized before the engine steps again.
   */
  exportSnapshot(shared = false): EngineSnapshot {
    return {
      time: this.time,
      random: this.rng.word,
      firstOpenPending: this.firstOpenPending,
      state: exportEngineState(this.live, shared),
    };
  }
  /**
   * Puts the engine where `exportSnapshot` found one (built with the same config and population);
   * `owned`: the document is the engine's to keep (no copy).
   */
  importSnapshot(s: EngineSnapshot, owned = false): void {
    this.live = importEngineState(s.state, owned);
    this.time = s.time;
    this.rng.word = s.random;
    this.firstOpenPending = s.firstOpenPending && this.population !== undefined;
  }
  /** `GET /_sim/orders`: the newest orders over every entity (the dashboard's table). */
  allOrders(query: AllOrdersQuery) {
    return this.step((ctx) => allOrders(ctx.state, query));
  }
  /** `GET /_sim/auctions`: the last auctions that cleared, newest first. */
  clearedAuctions(limit: number) {
    return this.step((ctx) => clearedAuctions(ctx.state, limit));
  }

  /** GET /_sim/state: the current auction and every entity with its balances (no secrets hidden: test keys). */
  snapshot() {
    return this.step((ctx) => stateView(ctx.state, ctx.time));
  }
}
