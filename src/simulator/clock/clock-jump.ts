/**
 * Clock jumps (`advance(ms)`, `POST /_sim/clock/advance`): checked before they run, run in parts,
 * visible while they run (docs/PROTOCOL.md, Auction cycle).
 *
 * With a background market (or a scenario) the engine runs every auction of a jump — the market
 * places in each, so clock.ts can skip or hold none — and a busy one takes milliseconds an
 * auction and makes hundreds of orders. So such a jump runs as parts, one transition each (a
 * lock, a clear, a settlement), each an engine step: a store's retention, which runs after every
 * step, evicts as the jump proceeds, and the asynchronous path (the HTTP route) yields to the
 * event loop every ~15 ms of work, so other requests are answered meanwhile. The parts send
 * exactly the events one step over the whole jump would (the balance events wait for the last
 * part: engine.ts), so where a jump is cut changes nothing it does. Without a population a jump
 * stays one step: clock.ts skips or holds its idle auctions across the whole jump, so it costs
 * what its book needs, and parts would cut that. Without a store nothing leaves memory: a jump
 * whose orders would not fit is refused before it runs.
 */

import { MatchVenueError } from '../../contract/base-error.js';
import type { VenueEngine } from '../engine/engine.js';
import { VenueError } from '../engine/errors.js';
import type { Logger } from '../events/logger.js';
import type { SimClock } from './sim-clock.js';

/**
 * The orders a simulator without a store may hold after a jump: those it holds plus what the
 * market is expected to add (market/rate.ts). Under 1 GB of memory: about 0.6 KB an order with
 * its share of auctions and activity (bench/advance-busy.ts: 4 busy hours held 1.03 million
 * orders at 785 MB peak RSS, 137 MB before). The busy preset reaches it in about 3.7 simulated
 * hours, the calm one in about 2.4 days.
 */
export const JUMP_ORDER_LIMIT = 1_000_000;
/** Work (wall ms) an asynchronous jump does before it lets other requests in. */
const SLICE_MS = 15;
/** A progress line at most this often (wall ms), and a last one for a jump that took longer. */
const LOG_EVERY_MS = 1_000;

/** `GET /_sim/state` -> `jump`: the clock jump running (null when none is). */
export interface JumpView {
  /** Where the jump started (ISO 8601). */
  from: string;
  /** Where it ends. */
  to: string;
  /** The instant it has reached: the simulator's clock while it runs. */
  now: string;
  /** Auctions that cleared since it started. */
  auctionsDone: number;
  /** Auctions that will have cleared by its end. */
  auctionsTotal: number;
}

/** `sim.advanceAsync(ms, options)` (`advance` takes `onProgress` too). */
export interface AdvanceOptions {
  /**
   * Stops the jump when it next yields: the clock stays at the instant it reached (an engine step's
   * end, the state whole there) and the promise rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** Called after every part with the jump's progress, as `GET /_sim/state` shows it. */
  onProgress?: (progress: JumpView) => void;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * A clock jump whose orders would not fit in memory without a store, refused before anything
 * changed: `POST /_sim/clock/advance` answers it with 400 code 2 naming `ms`.
 */
export class ClockJumpTooLargeError extends MatchVenueError {
  static override readonly kind = 'SIM_CLOCK_JUMP_TOO_LARGE';
  /** Always `ClockJumpTooLargeError`. */
  override name = 'ClockJumpTooLargeError';
  /** The rule the jump breaks: the 400 body's field message (the message is `Invalid request: ms <rule>`). */
  readonly rule: string;

  constructor(
    /** The jump asked for (ms). */
    readonly ms: number,
    /** The orders in memory when it was asked. */
    readonly held: number,
    /** About how many orders the market would add during it. */
    readonly expected: number,
  ) {
    // Within the field message's bound (contract/error-details.ts): the limit and the way out both show.
    const rule =
      `would hold about ${count(held + expected)} orders in memory (${count(held)} now), over the ` +
      `${count(JUMP_ORDER_LIMIT)} kept without a store: run with --store <file> (option store), which ` +
      'evicts old orders during the jump, or advance less';
    super(`Invalid request: ms ${rule}`);
    this.rule = rule;
  }
}

/**
 * A control action that moves the clock or replaces the state, asked while a clock jump runs:
 * `/_sim/*` answers it with 409 code -1.
 */
export class ClockJumpInProgressError extends MatchVenueError {
  static override readonly kind = 'SIM_CLOCK_JUMP_IN_PROGRESS';
  /** Always `ClockJumpInProgressError`. */
  override name = 'ClockJumpInProgressError';

  /** @internal */
  constructor(view: JumpView) {
    super(`a clock jump is in progress (to ${view.to}, now at ${view.now}); wait for its answer`);
  }
}

/** What the jumps read of the simulator (its engine of the moment: a reset replaces it). */
export interface JumpSimulator {
  readonly engine: VenueEngine;
  readonly logger: Logger;
  now(): number;
}

const yieldNow = () =>
  new Promise<void>((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );

/** The simulator's clock jumps: at most one runs at a time. */
export class ClockJumps {
  private running: Jump | undefined;
  private closing = false;

  constructor(
    private readonly sim: JumpSimulator,
    /** The simulator's clock (read late: the simulator builds it after this). */
    private readonly clock: () => SimClock,
  ) {}

  /** The jump running, as `GET /_sim/state` shows it; null when none is. */
  view(): JumpView | null {
    return this.running?.view() ?? null;
  }

  /** Throws while a jump runs (an action that moves the clock or replaces the state waits for it). */
  idle(): void {
    if (this.running) throw new ClockJumpInProgressError(this.running.view());
  }

  /** Throws what refuses a jump of `ms` before anything changes. */
  check(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('ms must be a non-negative number');
    this.idle();
    const { engine } = this.sim;
    const held = engine.orderCount;
    const auctions = Math.ceil(ms / engine.config.cycleMs);
    const terms = engine.jumpTerms(engine.currentAuction().auctionId, auctions, JUMP_ORDER_LIMIT - held);
    if (!terms.evicts && terms.orders > 0 && held + terms.orders > JUMP_ORDER_LIMIT)
      throw new ClockJumpTooLargeError(ms, held, terms.orders);
  }

  /** Runs a jump in one go (its parts still evict as they end); `check` first. */
  run(ms: number, onProgress?: AdvanceOptions['onProgress']): void {
    const jump = this.begin(ms);
    try {
      while (!jump.part()) onProgress?.(jump.view());
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Checks and runs a jump, yielding to the event loop every SLICE_MS of work; `started` runs once
   * it is accepted (the simulator logs the control action there).
   */
  async runAsync(ms: number, options: AdvanceOptions, started: () => void): Promise<void> {
    this.check(ms);
    options.signal?.throwIfAborted();
    started();
    const jump = this.begin(ms);
    try {
      let sliceStart = performance.now();
      while (!jump.part()) {
        options.onProgress?.(jump.view());
        if (performance.now() - sliceStart < SLICE_MS) continue;
        await yieldNow();
        if (options.signal?.aborted || this.closing) {
          jump.stop();
          throw (
            options.signal?.reason ?? new VenueError(503, -1, 'the simulator closed during the clock jump')
          );
        }
        sliceStart = performance.now();
      }
    } finally {
      this.running = undefined;
      this.clock().arm();
    }
  }

  /** The simulator closes: a jump running stops when it next yields. */
  close(): void {
    this.closing = true;
  }

  private begin(ms: number): Jump {
    this.closing = false;
    const jump = new Jump(this.sim, this.clock(), ms);
    this.running = jump;
    return jump;
  }
}

/** One jump: the parts it ran, and its progress. */
class Jump {
  private readonly touched = new Set<string>();
  private moved = 0;
  private readonly from: number;
  private readonly inParts: boolean;
  private readonly firstAuction: number;
  private readonly total: number;
  private readonly startedAt = performance.now();
  private loggedAt = this.startedAt;

  constructor(
    private readonly sim: JumpSimulator,
    private readonly clock: SimClock,
    private readonly ms: number,
  ) {
    const { engine } = sim;
    const { cycleMs } = engine.config;
    this.from = sim.now();
    // A jump of one cycle or less stays one step, as before parts: a caller stepping an auction at
    // a time sees each step (and a store's eviction and checkpoint) end where it asked.
    this.inParts = ms > cycleMs && engine.jumpTerms(0, 0, 0).everyAuction;
    const auction = engine.currentAuction();
    this.firstAuction = auction.auctionId;
    // Ids count elapsed cycles: the auction open at the end is this many after the first.
    const to = this.from + ms;
    this.total = to < auction.clearsAt ? 0 : Math.floor((to - auction.clearsAt) / cycleMs) + 1;
  }

  /**
   * Runs the next part: the clock moves to the engine's next transition (a lock, a clear with the
   * market's orders for the next auction, a settlement: the units of work), then the engine to it.
   * True when it was the last.
   */
  part(): boolean {
    const rest = this.ms - this.moved;
    const due = this.inParts ? this.sim.engine.nextDeadline() : null;
    // At least 1 ms a part: every transition due at the clock's reading has run by then.
    const step = due === null ? rest : Math.min(rest, Math.max(1, due - this.sim.now()));
    this.moved += step;
    this.clock.advance(step);
    const last = this.moved >= this.ms;
    this.sim.engine.advanceTo(undefined, { touched: this.touched, last });
    this.report(last);
    return last;
  }

  /** Ends the jump where it got to, with the balance events of what it did. */
  stop(): void {
    this.sim.engine.advanceTo(undefined, { touched: this.touched, last: true });
    this.report(true);
  }

  view(): JumpView {
    const iso = (t: number) => new Date(t).toISOString();
    const done = this.sim.engine.currentAuction().auctionId - this.firstAuction;
    return {
      from: iso(this.from),
      to: iso(this.from + this.ms),
      now: iso(this.sim.now()),
      auctionsDone: Math.min(done, this.total),
      auctionsTotal: this.total,
    };
  }

  /** A line every LOG_EVERY_MS of work, and one at the end of a jump that took longer. */
  private report(last: boolean): void {
    const t = performance.now();
    if (t - this.loggedAt < LOG_EVERY_MS && !(last && t - this.startedAt >= LOG_EVERY_MS)) return;
    this.loggedAt = t;
    const v = this.view();
    const share = v.auctionsTotal === 0 ? 100 : Math.floor((100 * v.auctionsDone) / v.auctionsTotal);
    const where = `${count(v.auctionsDone)} of ${count(v.auctionsTotal)} auctions (${share}%)`;
    const took = `${((t - this.startedAt) / 1000).toFixed(1)} s`;
    this.sim.logger.info(
      last
        ? `clock jump to ${v.to} done: ${where} in ${took}`
        : `clock jump to ${v.to}: at ${v.now}, ${where}, ${took}`,
    );
  }
}
